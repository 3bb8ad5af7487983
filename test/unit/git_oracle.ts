// The real `git` command as the oracle of the unit tests of src/git: running it with a clean
// configuration, reading every object with `git cat-file --batch`, a seeded random source.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

const GIT_ENV: Record<string, string> = {
  ...(process.env as Record<string, string>),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: os.tmpdir(),
  GIT_AUTHOR_NAME: 'Ann Author',
  GIT_AUTHOR_EMAIL: 'ann@example.com',
  GIT_COMMITTER_NAME: 'Carl Committer',
  GIT_COMMITTER_EMAIL: 'carl@example.com',
  GIT_TERMINAL_PROMPT: '0',
};

/** Runs git in `cwd`; the output as bytes. Throws on a non-zero exit. */
export function gitBuf(cwd: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): Buffer {
  return execFileSync('git', args, { cwd, env: { ...GIT_ENV, ...opts.env }, input: opts.input, maxBuffer: 512 << 20, stdio: ['pipe', 'pipe', 'pipe'] });
}

export function git(cwd: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): string {
  return gitBuf(cwd, args, opts).toString('utf8');
}

/** Runs git and returns its exit status and output, whatever the status. */
export function gitStatus(cwd: string, args: string[]): { status: number; stdout: string } {
  const r = spawnSync('git', args, { cwd, env: GIT_ENV, maxBuffer: 512 << 20 });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, stdout: r.stdout.toString('utf8') };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface OracleObject {
  type: string;
  data: Buffer;
}

/** Every object of a repository (its alternates included), as `git cat-file --batch` prints it. */
export function allObjects(gitdir: string): Map<string, OracleObject> {
  const out = gitBuf(gitdir, ['cat-file', '--batch-all-objects', '--batch', '--unordered']);
  const objects = new Map<string, OracleObject>();
  let p = 0;
  while (p < out.length) {
    const nl = out.indexOf(10, p);
    const [oid, type, size] = out.toString('latin1', p, nl).split(' ');
    const start = nl + 1;
    const end = start + Number(size);
    objects.set(oid, { type, data: Buffer.from(out.subarray(start, end)) });
    if (out[end] !== 10) throw new Error(`cat-file --batch: no newline after ${oid}`);
    p = end + 1;
  }
  return objects;
}

export function packFiles(gitdir: string): string[] {
  const dir = path.join(gitdir, 'objects', 'pack');
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.pack'))
    .map((n) => path.join(dir, n))
    .sort();
}

export function looseCount(gitdir: string): number {
  const m = /^count: (\d+)$/m.exec(git(gitdir, ['count-objects', '-v']));
  return Number(m![1]);
}

export interface PackEntry {
  oid: string;
  offset: number;
  /** The pack type: 1 commit, 2 tree, 3 blob, 4 tag, 6 OFS_DELTA, 7 REF_DELTA. */
  kind: number;
  /** Bytes of the entry header (type/size, then the base offset or id of a delta). */
  headerLength: number;
  /** Where the next entry (or the trailer) starts. */
  end: number;
}

/** The entries of a pack file, read from `git show-index` and the pack's own headers. */
export function packEntries(packPath: string): PackEntry[] {
  const idx = packPath.replace(/\.pack$/, '.idx');
  const lines = execFileSync('git', ['show-index'], { input: fs.readFileSync(idx), env: GIT_ENV })
    .toString()
    .trim()
    .split('\n');
  const pack = fs.readFileSync(packPath);
  const entries = lines.map((l) => {
    const [offset, oid] = l.split(' ');
    return { oid, offset: Number(offset) };
  });
  entries.sort((a, b) => a.offset - b.offset);
  return entries.map((e, i) => {
    let p = e.offset;
    let b = pack[p++];
    const kind = (b >> 4) & 7;
    while (b & 0x80) b = pack[p++];
    if (kind === 6) {
      do b = pack[p++];
      while (b & 0x80);
    } else if (kind === 7) {
      p += 20;
    }
    const end = i + 1 < entries.length ? entries[i + 1].offset : pack.length - 20;
    return { oid: e.oid, offset: e.offset, kind, headerLength: p - e.offset, end };
  });
}

/** A seeded random source (mulberry32), so failures reproduce. */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
