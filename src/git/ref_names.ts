// Branch names as `git check-ref-format --branch` accepts them (GitLab 10.8's
// Gitlab::GitRefValidator shelled out to it), plus GitLab's own refusal of names that start
// with refs/heads/ or refs/remotes/. Checked in code so no git binary is needed at run time.

// Control characters, DEL, space and the characters git reserves for revision syntax.
const FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

export function isValidBranchName(name: string): boolean {
  if (!name || name.startsWith('-') || name === 'HEAD') return false;
  if (name.startsWith('refs/heads/') || name.startsWith('refs/remotes/')) return false;
  if (FORBIDDEN.test(name) || name.includes('..') || name.includes('@{') || name.endsWith('.')) return false;
  for (const part of name.split('/')) {
    if (part === '' || part.startsWith('.') || part.endsWith('.lock')) return false;
  }
  return true;
}
