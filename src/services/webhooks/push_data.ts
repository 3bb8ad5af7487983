// The push and tag push hook events of moved refs (GitLab 10.8's GitPushService /
// GitTagPushService → Gitlab::DataBuilder::Push), read from the repository BEFORE the
// transaction that records the push (git is never read inside one), and only when some hook
// wants them, so that a project without hooks pays one query per push.
// - branch: before/after, the full ref, checkout_sha = after (null for a removal), the
//   commits the push brought (old..new; for a new branch those not on the default branch),
//   the newest 20 of them oldest first with their added/modified/removed files,
//   total_commits_count all of them;
// - tag: the tag's commit as the only commit, checkout_sha that commit, nothing on removal.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { HookScope } from '../../store/hook_rows.js';
import { gitdirOf } from '../../finders/projects.js';
import type { PushedRef } from '../push/pushed_ref.js';
import { projectHasHooks, type CommitSnapshot, type HookEvent } from './triggers.js';

const run = promisify(execFile);
const BRANCH = 'refs/heads/';
const TAG = 'refs/tags/';
const MAX_COMMITS = 20;
const blank = (oid: string) => !oid || /^0+$/.test(oid);

async function git(gitdir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', [`--git-dir=${gitdir}`, ...args], { env: { PATH: process.env.PATH ?? '' }, maxBuffer: 32 * 1024 * 1024 });
  return stdout;
}

function trimNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '\n') end--;
  return text.slice(0, end);
}

/**
 * Up to `max` commits of `range`, oldest first, each with its changed files against its first
 * parent (Commit#hook_attrs(with_changed_files: true)): one `git log`.
 */
async function logCommits(gitdir: string, range: string[], max: number): Promise<CommitSnapshot[]> {
  const out = await git(gitdir, [
    'log',
    `--max-count=${max}`,
    '--no-renames',
    '--diff-merges=first-parent',
    '--name-status',
    '--format=%x1e%H%x1f%an%x1f%ae%x1f%cI%x1f%B%x1f',
    ...range,
    '--',
  ]);
  const commits: CommitSnapshot[] = [];
  for (const record of out.split('\u001e')) {
    const fields = record.split('\u001f');
    if (fields.length < 6) continue;
    const [id, name, email, timestamp] = fields;
    const files = fields[fields.length - 1];
    const message = fields.slice(4, -1).join('\u001f');
    const snap: CommitSnapshot = { id, message: trimNewlines(message), timestamp, author: { name, email }, added: [], modified: [], removed: [] };
    for (const line of files.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const status = line.slice(0, tab);
      const file = line.slice(tab + 1);
      if (status === 'A') snap.added.push(file);
      else if (status === 'D') snap.removed.push(file);
      else snap.modified.push(file);
    }
    commits.push(snap);
  }
  return commits.reverse();
}

async function branchCommits(gitdir: string, base: string | null, head: string): Promise<{ commits: CommitSnapshot[]; total: number }> {
  const range = [head, ...(base ? [`^${base}`] : [])];
  const total = Number((await git(gitdir, ['rev-list', '--count', ...range, '--'])).trim()) || 0;
  return { commits: total ? await logCommits(gitdir, range, MAX_COMMITS) : [], total };
}

/** An annotated tag's message without its final newline (GitLab's tag.message); null for a lightweight tag. */
async function tagMessage(gitdir: string, oid: string): Promise<string | null> {
  if ((await git(gitdir, ['cat-file', '-t', oid])).trim() !== 'tag') return null;
  const text = await git(gitdir, ['cat-file', 'tag', oid]);
  const start = text.indexOf('\n\n');
  return start < 0 ? '' : text.slice(start + 2).replace(/\n$/, '');
}

/** The hook events of a push, with their scopes; empty when no hook wants them. */
export async function pushHookEvents(
  deps: Deps,
  project: ProjectWithNamespace,
  user: UserRow,
  updates: PushedRef[],
  defaultBranch: string | null,
): Promise<{ scope: HookScope; event: HookEvent }[]> {
  const wantsPush = await projectHasHooks(deps.db, project.id, 'push_hooks');
  const wantsTag = await projectHasHooks(deps.db, project.id, 'tag_push_hooks');
  if (!wantsPush && !wantsTag) return [];
  const gitdir = gitdirOf(deps.repos, project);
  const out: { scope: HookScope; event: HookEvent }[] = [];
  for (const u of updates) {
    const isTag = u.ref.startsWith(TAG);
    if (isTag ? !wantsTag : !wantsPush || !u.ref.startsWith(BRANCH)) continue;
    const removed = blank(u.newOid);
    let commits: CommitSnapshot[] = [];
    let total = 0;
    let checkout: string | null = null;
    let message: string | null = null;
    try {
      if (isTag && !removed) {
        message = await tagMessage(gitdir, u.newOid);
        const sha = (await git(gitdir, ['rev-parse', '--verify', '--end-of-options', `${u.newOid}^{commit}`])).trim();
        commits = await logCommits(gitdir, [sha], 1);
        total = 1;
        checkout = sha;
      } else if (!removed) {
        const name = u.ref.slice(BRANCH.length);
        let base: string | null = blank(u.oldOid) ? null : u.oldOid;
        if (base === null && defaultBranch && defaultBranch !== name) {
          base = await git(gitdir, ['rev-parse', '--verify', '--quiet', `${BRANCH}${defaultBranch}`]).then(
            (o) => o.trim() || null,
            () => null,
          );
        }
        ({ commits, total } = await branchCommits(gitdir, base, u.newOid));
        checkout = u.newOid;
      }
    } catch (err) {
      deps.log.warn({ err, project: project.id, ref: u.ref }, 'push hook commits not read');
    }
    out.push({
      scope: isTag ? 'tag_push_hooks' : 'push_hooks',
      event: {
        kind: 'push',
        tag: isTag,
        projectId: project.id,
        userId: user.id,
        before: u.oldOid || '0'.repeat(40),
        after: u.newOid || '0'.repeat(40),
        ref: u.ref,
        checkoutSha: checkout,
        message,
        commits,
        totalCommits: total,
      },
    });
  }
  return out;
}
