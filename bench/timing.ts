// Shared by the timing benchmarks that compare Wharf with native git (merge, repository,
// transport): Wharf started in this process on a temporary folder with the root token,
// medians of timed runs, and git run synchronously or asynchronously. Anything that talks to
// the in-process server must use the asynchronous git: a synchronous one blocks its event loop.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { ROOT_TOKEN } from './harness.js';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const now = () => process.hrtime.bigint();

/** Milliseconds since `t` (from `now()`). */
export const msSince = (t: bigint) => Number(now() - t) / 1e6;

/** The median in ms of `n` runs of `f(i)`; `setup`, if any, runs untimed before each. */
export async function timeIt(n: number, f: (i: number) => Promise<unknown> | unknown, setup?: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await setup?.();
    const t = now();
    await f(i);
    times.push(msSince(t));
  }
  return median(times);
}

export interface GitOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

/** git, synchronously; its stdout. Never against the in-process server. */
export function gitSync(args: string[], options: GitOptions = {}): Buffer {
  return execFileSync('git', args, { ...options, maxBuffer: 1 << 30 });
}

/** git, asynchronously; its stdout, trimmed. Fails with git's stderr. */
export function gitAsync(args: string[], options: GitOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`git ${args.join(' ')}: ${err}`))));
  });
}

/**
 * Makes a temporary folder named `prefix…`, starts Wharf in this process on it (silent log,
 * the bench root token), runs `body`, then closes the server and removes the folder.
 */
export async function withInProcessServer(prefix: string, body: (server: RunningServer, dir: string) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
      WHARF_REPOS: path.join(dir, 'repos'),
      WHARF_ROOT_TOKEN: ROOT_TOKEN,
      WHARF_SSH_PORT: '0',
      ...env,
    });
    const server = await startServer(config, pino({ level: 'silent' }));
    try {
      await body(server, dir);
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
