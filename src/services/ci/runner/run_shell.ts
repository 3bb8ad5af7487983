// One bash run of a job (its before_script + script, or its after_script): in its own process
// group, so that a timeout, a cancel or a stop kills everything it started; its output goes to
// the trace as it comes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { TraceWriter } from './trace.js';
import type { JobUser } from './job_user.js';

export type StopReason = 'timeout' | 'canceled' | 'shutdown';

export interface ShellRun {
  /** Resolves with the exit code (null when killed) once the process ended. */
  done: Promise<number | null>;
  /** Kills the whole process group. */
  kill(): void;
}

export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function runShell(scriptFile: string, script: string, env: Record<string, string>, cwd: string, trace: TraceWriter, user: JobUser | null): ShellRun {
  fs.writeFileSync(scriptFile, script, { mode: 0o600 });
  if (user) fs.chownSync(scriptFile, user.uid, user.gid);
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const child = spawn('bash', ['--noprofile', '--norc', scriptFile], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...as });
  child.stdout.on('data', (d: Buffer) => trace.write(d));
  child.stderr.on('data', (d: Buffer) => trace.write(d));
  const done = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    // Whatever the script left running in its group (a `sleep &`) ends with it, and with it
    // the output pipes it held open.
    child.on('exit', () => killGroup(child.pid));
    child.on('close', (code) => resolve(code));
  });
  return { done, kill: () => killGroup(child.pid) };
}
