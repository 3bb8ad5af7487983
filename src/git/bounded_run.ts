// Runs a read-only git command whose output depends on what users search for (git grep,
// git log --grep), bounded in time and in output: past the deadline or the byte cap the
// process is killed and what it printed so far is the answer, marked as cut; so it is once
// the caller has read all it will use. GitLab 10.8
// shelled out to git for these reads with no bound at all; a search must not be able to keep
// a worker busy or fill its memory.
import { spawn } from 'node:child_process';

export interface BoundedOutput {
  stdout: Buffer;
  /** The deadline or the byte cap stopped git before it finished. */
  cut: boolean;
}

export interface Bounds {
  timeoutMs: number;
  maxBytes: number;
}

/** Told each chunk of output as it arrives: true when the caller has read enough. */
type Enough = (chunk: Buffer) => boolean;

/** `git --git-dir=<gitdir> <args>`, its stdout (at most `maxBytes`), killed at the deadline or once `enough`. */
export function runBoundedGit(gitdir: string, args: string[], bounds: Bounds, enough?: Enough): Promise<BoundedOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gitdir}`, ...args], {
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let cut = false;
    const stop = () => {
      cut = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(stop, bounds.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (cut) return;
      const room = bounds.maxBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= bounds.maxBytes || enough?.(chunk)) stop();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // grep exits 1 when nothing matched; other failures (a bad revision) answer nothing.
      if (!cut && code !== 0) return resolve({ stdout: Buffer.alloc(0), cut: false });
      resolve({ stdout: Buffer.concat(chunks), cut });
    });
  });
}
