// The push hooks' verdict on a ref change made through the API (GitLab's `web` protocol: a
// master may delete a protected branch), as a 400 with the message: branch and tag writes
// ask it before moving a ref. GitLab 10.8 relayed the hook's raw output here ("GitLab:
// <message>" with an HTML line break); Wharf answers the message alone, as later GitLab
// versions do.
import type { Deps } from '../../deps.js';
import { Rejected } from '../../store/domain_errors.js';
import { checkRefUpdate } from '../../policy/branches.js';
import type { ProjectContext } from '../repository/file_writes.js';

/** `ref` is the full name (`refs/heads/…`, `refs/tags/…`); null oids: creation or deletion. */
export async function checkApiRefChange(deps: Deps, loaded: ProjectContext, ref: string, oldOid: string | null, newOid: string | null): Promise<void> {
  const verdict = await checkRefUpdate(deps.db, loaded.user, loaded.project, loaded.access, {
    ref,
    oldOid,
    newOid,
    isForce: false,
    emptyRepo: false,
    web: true,
  });
  if (!verdict.allowed) throw new Rejected(verdict.message);
}
