// Ref names as git's `check-ref-format` accepts them (GitLab 10.8's Gitlab::GitRefValidator
// shelled out to `git check-ref-format --branch`), plus GitLab's own refusal of branch names
// that start with refs/heads/ or refs/remotes/, plus what a file system can hold: a loose
// ref is a file, so no component may pass NAME_MAX (255 bytes) once git's `.lock` suffix is
// added, and a name must be well-formed Unicode (a lone surrogate has no UTF-8 form: it
// would be written as U+FFFD and never be found again). Checked in code, in linear time, so
// no git binary is needed at run time.

/** NAME_MAX less the `.lock` that git appends while it moves a ref. */
const MAX_COMPONENT_BYTES = 250;
/** A whole branch or tag name: well inside PATH_MAX (4096) with the repository path in front. */
const MAX_NAME_BYTES = 1024;

// Control characters, DEL, space and the characters git reserves for revision syntax.
const FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

/** Well-formed UTF-16 (every surrogate paired), so the name has a UTF-8 form. */
export function wellFormed(name: string): boolean {
  return Buffer.from(name, 'utf8').toString('utf8') === name;
}

/**
 * git's rules for a ref name, the one-level name of a branch or tag (`feature/x`) or a full
 * ref (`refs/heads/feature/x`) alike: no empty, `.`-led or `.lock`-ended component, no `..`,
 * `@{`, reserved or control character, no trailing `.`; and each component fits on disk.
 */
function isValidRefName(name: string): boolean {
  if (!name || name.startsWith('-')) return false;
  if (FORBIDDEN.test(name) || name.includes('..') || name.includes('@{') || name.endsWith('.')) return false;
  for (const part of name.split('/')) {
    if (part === '' || part.startsWith('.') || part.endsWith('.lock')) return false;
    if (Buffer.byteLength(part) > MAX_COMPONENT_BYTES) return false;
  }
  return wellFormed(name);
}

/** A name a new branch may have (`git check-ref-format --branch` and GitLab's additions). */
export function isValidBranchName(name: string): boolean {
  if (name === 'HEAD' || name.startsWith('refs/heads/') || name.startsWith('refs/remotes/')) return false;
  return Buffer.byteLength(name) <= MAX_NAME_BYTES && isValidRefName(name);
}

/** A full ref name below `refs/` (`refs/heads/x`, `refs/merge-requests/1/head`). */
export function isValidFullRef(ref: string): boolean {
  return ref.startsWith('refs/') && isValidRefName(ref);
}
