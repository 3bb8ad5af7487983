// Asking the real `git` about a bare repository, and changing it the way another git
// process would (plumbing commands, no work tree), for the repository write tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Pat Pusher',
  GIT_AUTHOR_EMAIL: 'pat@example.com',
  GIT_COMMITTER_NAME: 'Pat Pusher',
  GIT_COMMITTER_EMAIL: 'pat@example.com',
};

export function git(gitdir: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { env: { ...ENV, ...opts.env }, input: opts.input, maxBuffer: 64 << 20 }).toString();
}

export function gitBytes(gitdir: string, args: string[]): Buffer {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { env: ENV, maxBuffer: 64 << 20 });
}

/** `git for-each-ref` plus HEAD: everything a write may move. */
export function refState(gitdir: string): string {
  return `${git(gitdir, ['for-each-ref'])}HEAD=${fs.readFileSync(path.join(gitdir, 'HEAD'), 'utf8')}`;
}

/** `git fsck --full --strict` passes (dangling objects allowed: failed writes may leave some). */
export function expectFsckClean(gitdir: string): void {
  const out = execFileSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  expect(out.trim()).to.equal('');
}

/** Asserts that no ref moved since `before` and the repository is sound. */
export function expectUntouched(gitdir: string, before: string): void {
  expect(refState(gitdir)).to.equal(before);
  expectFsckClean(gitdir);
}

/** Commits `files` on top of `branch` with plumbing, as a concurrent `git push` would land. */
export function pushCommit(gitdir: string, branch: string, files: Record<string, string>, message = 'pushed'): string {
  const index = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-idx-')), 'index');
  const env = { GIT_INDEX_FILE: index };
  const parent = git(gitdir, ['rev-parse', `refs/heads/${branch}`]).trim();
  git(gitdir, ['read-tree', parent], { env });
  for (const [file, content] of Object.entries(files)) {
    const oid = git(gitdir, ['hash-object', '-w', '--stdin'], { input: content }).trim();
    git(gitdir, ['update-index', '--add', '--cacheinfo', `100644,${oid},${file}`], { env });
  }
  const tree = git(gitdir, ['write-tree'], { env }).trim();
  const commit = git(gitdir, ['commit-tree', tree, '-p', parent, '-m', message]).trim();
  git(gitdir, ['update-ref', `refs/heads/${branch}`, commit, parent]);
  fs.rmSync(path.dirname(index), { recursive: true, force: true });
  return commit;
}

export function head(gitdir: string, branch: string): string {
  return git(gitdir, ['rev-parse', `refs/heads/${branch}`]).trim();
}

/** `path -> mode blob-id` of every file in a commit. */
export function lsTree(gitdir: string, rev: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of git(gitdir, ['ls-tree', '-r', '-z', rev]).split('\0')) {
    if (!line) continue;
    const [meta, file] = line.split('\t');
    const [mode, , oid] = meta.split(' ');
    out[file] = `${mode} ${oid}`;
  }
  return out;
}
