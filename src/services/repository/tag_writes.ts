// Creating and deleting tags through the API (GitLab 10.8's Tags::CreateService and
// Tags::DestroyService over Repository#add_tag / #rm_tag), with their checks in 10.8's order
// and its messages:
//   create: the name (`Tag name invalid`, git's check-ref-format), the target (`Target <ref>
//   is invalid`: no commit), the push hooks (ChangeAccess: push rights, and an existing tag
//   only for masters — `You are not allowed to change existing tags on this project.`), then
//   the tag itself (`Tag <name> already exists`);
//   delete: the hooks (deleting an existing tag is changing it: masters only), then the ref.
// A `message` makes an annotated tag: a tag object (tagger: the user, now) written with the
// server's object writer, as git writes it; without one the tag is lightweight. The tag
// always names the commit (an annotated target is peeled). Objects are written outside the
// lock; the ref is created (or deleted) by compare-and-swap under the repository lock, so two
// writers of one name never both win. Each change records its tag push event (push/refs_moved.ts).
// `release_description` on create writes the tag's release, as CreateReleaseService does
// (an existing release of that name is kept, as 10.8 ignored that service's refusal).
// Protected tags: 10.8 has them in the web UI only (no API creates one until 11.3), and Wharf
// has none, so the hooks' protected-tag checks never apply.
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../store/rows.js';
import { Rejected } from '../../store/domain_errors.js';
import { isValidBranchName } from '../../git/ref_names.js';
import { deleteRef, readRef, RefMovedError, updateRef } from '../../git/refs.js';
import { RepoReader } from '../../git/reader.js';
import { ObjectBatch } from '../../git/writer.js';
import { whileRepositoryExists, withProjectRepository } from './guard.js';
import { type ProjectContext } from './file_writes.js';
import { checkApiRefChange } from '../push/api_ref_check.js';
import { ZERO_OID } from '../push/pushed_ref.js';
import { deleteReleaseOf, findRelease, createRelease } from './releases.js';
import { afterRefsMoved } from '../push/refs_moved.js';

const TAG_NAME_INVALID = 'Tag name invalid';
const FAILED_TO_REMOVE = 'Failed to remove tag';

function tagExists(name: string): string {
  return `Tag ${name} already exists`;
}

function targetInvalid(ref: string): string {
  return `Target ${ref} is invalid`;
}

export interface NewTagRequest {
  name: string;
  ref: string;
  /** Present (even empty): an annotated tag with this message, stripped as GitLab strips it. */
  message?: string;
  releaseDescription?: string;
}

/** Another tag that would share a path on disk with `name` (`v1` and `v1/rc` cannot coexist). */
function conflictingTag(names: Iterable<string>, name: string): string | null {
  for (const n of names) if (n.startsWith(`${name}/`) || name.startsWith(`${n}/`)) return n;
  return null;
}

/** Creates the tag; returns the oid the ref points at (the tag object's for an annotated tag). */
export async function createTag(deps: Deps, loaded: ProjectContext, req: NewTagRequest): Promise<string> {
  if (!isValidBranchName(req.name)) throw new Rejected(TAG_NAME_INVALID);
  const user = loaded.user as UserRow; // push_code was authorized: never anonymous
  const { project } = loaded;
  const ref = `refs/tags/${req.name}`;
  const oid = await whileRepositoryExists(deps, project, async (gitdir) => {
    const reader = new RepoReader(gitdir);
    const target = await reader.resolveCommit(req.ref);
    if (!target) throw new Rejected(targetInvalid(req.ref));
    await checkApiRefChange(deps, loaded, ref, await readRef(gitdir, ref), target);
    const names = await reader.tags();
    if (names.includes(req.name)) throw new Rejected(tagExists(req.name));
    const other = conflictingTag(names, req.name);
    if (other) throw new Rejected(`${TAG_NAME_INVALID}: a tag called '${other}' is in the way`);

    let pointed = target;
    if (req.message !== undefined) {
      const message = req.message.trim();
      const batch = new ObjectBatch(gitdir);
      const tagger = { name: user.name, email: user.email, timestamp: Math.floor(Date.now() / 1000) };
      // As `git tag -m`: a non-empty message ends with a newline.
      pointed = batch.tag({ object: target, name: req.name, tagger, message: message === '' ? '' : `${message}\n` });
      await batch.flush();
    }
    await withProjectRepository(deps, project, async (dir) => {
      try {
        await updateRef(dir, ref, pointed, null);
      } catch (err) {
        if (err instanceof RefMovedError) throw new Rejected(tagExists(req.name));
        throw err;
      }
    });
    return pointed;
  });
  if (req.releaseDescription !== undefined && !(await findRelease(deps.db, project.id, req.name))) {
    await createRelease(deps.db, project.id, req.name, req.releaseDescription, true).catch(() => undefined); // lost a race: kept
  }
  await afterRefsMoved(deps, { project, user: user, updates: [{ ref, oldOid: ZERO_OID, newOid: oid }], statistics: 'now' });
  return oid;
}

/** Deletes the tag, which the caller found pointing at `target` (leading to `commit`). */
export async function deleteTag(deps: Deps, loaded: ProjectContext, name: string, target: string, commit: string | null): Promise<void> {
  const { project } = loaded;
  const ref = `refs/tags/${name}`;
  await checkApiRefChange(deps, loaded, ref, target, null);
  await withProjectRepository(deps, project, async (gitdir) => {
    try {
      await deleteRef(gitdir, ref, target);
    } catch (err) {
      if (err instanceof RefMovedError) throw new Rejected(FAILED_TO_REMOVE);
      throw err;
    }
  });
  await deleteReleaseOf(deps.db, project.id, name);
  // GitLab's push data names the tagged commit as the old value.
  await afterRefsMoved(deps, { project, user: loaded.user as UserRow, updates: [{ ref, oldOid: commit ?? target, newOid: ZERO_OID }], statistics: 'now' });
}
