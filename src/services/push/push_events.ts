// Push events (GitLab 10.8's GitPushService / GitTagPushService → EventCreateService#push and
// PushEventPayloadService): one `pushed` event per moved branch or tag, whether the push came
// over git or through the API, with its payload:
// - action: `created` (old id blank), `removed` (new id blank), else `pushed`;
// - commit_from: the old id (null when created); commit_to: the new id (null when removed);
// - ref: the short name; ref_type: `branch` or `tag`;
// - commit_count: the commits the push brought, counted as 10.8 counts them: for a new
//   default branch (or the first branch of an empty project) its whole history; for another
//   new branch the commits not on the default branch; for a moved branch those in old..new;
//   a tag counts its one commit; a removal none;
// - commit_title: the first line of the newest of those commits, stripped, cut to 70
//   characters the way Rails' String#truncate does ("..." included). (10.8 took the oldest of
//   its 100-commit window for a new default branch; Wharf shows the newest as for any push.)
// Other refs (merge request heads, keep-arounds) record nothing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { PushedRef } from './pushed_ref.js';
import type { PushPayload } from '../../store/extras.js';
import { gitdirOf } from '../../finders/projects.js';
import { RepoReader } from '../../git/reader.js';
import { countCommits } from '../../git/history.js';
import { commitsBetween } from '../../git/compare.js';
import { readRef } from '../../git/refs.js';
import { announce } from '../notify.js';
import { pushHookEvents } from '../webhooks/push_data.js';

const BRANCH = 'refs/heads/';
const TAG = 'refs/tags/';
/** More than any push brings; a bound on memory all the same. */
const MAX_COUNTED = 1_000_000;

const blank = (oid: string) => !oid || /^0+$/.test(oid);
const run = promisify(execFile);

/**
 * `git rev-list --count head ^base` (the whole history without a base): native git counts a
 * first push of many thousands of commits in milliseconds, which matters since the push's
 * answer waits for its events. The object-by-object walk is the fallback.
 */
async function countBetween(reader: RepoReader, base: string | null, head: string): Promise<number> {
  try {
    const args = [`--git-dir=${reader.gitdir}`, 'rev-list', '--count', head, ...(base ? [`^${base}`] : []), '--'];
    const { stdout } = await run('git', args, { env: { PATH: process.env.PATH ?? '' } });
    const n = Number(stdout.trim());
    if (Number.isSafeInteger(n)) return n;
  } catch {
    // not a repository git can read: walk it ourselves
  }
  return base === null ? countCommits(reader.gitdir, head) : (await commitsBetween(reader, base, head, MAX_COUNTED)).commits.length;
}

/** The first line, stripped, at most 70 characters (67 and "..." when longer). */
export function commitTitle(message: string | null | undefined): string | null {
  if (message === null || message === undefined) return null;
  const newline = message.indexOf('\n');
  const line = (newline >= 0 ? message.slice(0, newline + 1) : message).trim();
  const chars = Array.from(line);
  return chars.length > 70 ? `${chars.slice(0, 67).join('')}...` : line;
}

async function titleOf(reader: RepoReader, oid: string): Promise<string | null> {
  try {
    return commitTitle((await reader.commit(oid)).message);
  } catch {
    return null;
  }
}

/** The payload of one moved ref, or null for a ref that is neither a branch nor a tag. */
async function pushPayload(reader: RepoReader, defaultBranch: string | null, update: PushedRef): Promise<PushPayload | null> {
  const isBranch = update.ref.startsWith(BRANCH);
  if (!isBranch && !update.ref.startsWith(TAG)) return null;
  const name = update.ref.slice(isBranch ? BRANCH.length : TAG.length);
  const created = blank(update.oldOid);
  const removed = blank(update.newOid);
  let count = 0;
  let title: string | null = null;
  if (!removed && !isBranch) {
    const commit = await reader.resolveCommit(update.newOid).catch(() => null);
    if (commit) {
      count = 1;
      title = await titleOf(reader, commit);
    }
  } else if (!removed) {
    let base: string | null = null;
    if (!created) base = update.oldOid;
    else if (defaultBranch !== null && defaultBranch !== name) base = await readRef(reader.gitdir, `${BRANCH}${defaultBranch}`);
    count = await countBetween(reader, base, update.newOid);
    if (count > 0) title = await titleOf(reader, update.newOid);
  }
  return {
    commit_count: count,
    action: created ? 'created' : removed ? 'removed' : 'pushed',
    ref_type: isBranch ? 'branch' : 'tag',
    commit_from: created ? null : update.oldOid,
    commit_to: removed ? null : update.newOid,
    ref: name,
    commit_title: title,
  };
}

/**
 * Announces the push (notify.ts: its events, the pusher's activity, its hooks): what each
 * moved ref is as an event and as a hook event is read from git first, outside the
 * transaction that records them.
 */
export async function announcePush(deps: Deps, project: ProjectWithNamespace, user: UserRow, updates: PushedRef[]): Promise<void> {
  const reader = new RepoReader(gitdirOf(deps.repos, project));
  // The stored default branch: the first push to an empty project has just set it.
  const row = await deps.db('projects').where({ id: project.id }).first('default_branch');
  if (!row) return;
  const payloads: PushPayload[] = [];
  for (const update of updates) {
    const payload = await pushPayload(reader, row.default_branch ?? null, update);
    if (payload) payloads.push(payload);
  }
  if (!payloads.length) return;
  const hookEvents = await pushHookEvents(deps, project, user, updates, row.default_branch ?? null);
  await deps.db.transaction((tx) => announce(tx, { name: 'pushed', project, actor: user, payloads, hookEvents }));
}
