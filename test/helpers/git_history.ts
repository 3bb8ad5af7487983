// Builds real history in a project's bare repository with the `git` command (clone, commit,
// push), and asks git about it, so API answers can be compared with git's own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

export class Work {
  constructor(
    readonly bare: string,
    readonly dir: string,
  ) {}

  /** Runs git in the work tree; `date` sets both author and committer dates. */
  git(args: string[], opts: { date?: string; input?: string } = {}): string {
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ann Author',
      GIT_AUTHOR_EMAIL: 'ann@example.com',
      GIT_COMMITTER_NAME: 'Carl Committer',
      GIT_COMMITTER_EMAIL: 'carl@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: this.dir,
      ...(opts.date ? { GIT_AUTHOR_DATE: opts.date, GIT_COMMITTER_DATE: opts.date } : {}),
    };
    return execFileSync('git', args, { cwd: this.dir, env, input: opts.input, maxBuffer: 64 << 20 }).toString();
  }

  write(file: string, content: string | Buffer, mode?: number): void {
    const p = path.join(this.dir, file);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
    if (mode) fs.chmodSync(p, mode);
  }

  commit(message: string, date: string): string {
    this.git(['add', '-A']);
    this.git(['commit', '-q', '--allow-empty', '-m', message], { date });
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  push(...refs: string[]): void {
    this.git(['push', '-q', 'origin', ...refs]);
  }

  /** Git in the bare repository (the server's copy). */
  bareGit(args: string[]): string {
    return execFileSync('git', ['--git-dir', this.bare, ...args], { maxBuffer: 64 << 20 }).toString();
  }
}

/** A clone of the (possibly empty) bare repository, on branch master. */
export function cloneOf(bare: string): Work {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-work-'));
  execFileSync('git', ['clone', '-q', bare, dir], { stdio: 'ignore' });
  const work = new Work(bare, dir);
  work.git(['checkout', '-q', '-B', 'master']);
  work.git(['config', 'core.autocrlf', 'false']);
  return work;
}

/** `git ls-tree [-r -t] ref [path]` entries in git's order. */
export function lsTree(w: Work, ref: string, opts: { recursive?: boolean; path?: string } = {}) {
  const args = ['ls-tree', '-z', ...(opts.recursive ? ['-r', '-t'] : []), ref];
  if (opts.path) args.push('--', `${opts.path}/`);
  return w
    .bareGit(args)
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split('\t');
      const [mode, type, id] = meta.split(' ');
      return { id, name: path.posix.basename(file), type, path: file, mode };
    });
}

/** GitLab's order of a listing: trees, then blobs, then submodules, each in git's order. */
export function gitlabOrder<T extends { type: string }>(entries: T[]): T[] {
  return ['tree', 'blob', 'commit'].flatMap((t) => entries.filter((e) => e.type === t));
}
