// One step of a job run (its before_script + script, its after_script, or a helper of the
// runner's): the sandboxed command of sandbox.ts, started in a process group of its own so that
// a timeout, a cancel or a stop kills it (bwrap then takes the step's whole PID namespace with
// it); what it prints goes to the trace as it comes, or its standard output to `stdout` (a
// helper's archive).
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { TraceWriter } from './trace.js';
import { stepCommand, type SandboxConfig, type Step } from './sandbox.js';

export type StopReason = 'timeout' | 'canceled' | 'shutdown' | 'disk';

interface ShellRun {
  /** Resolves with the exit code (null when killed) once the process ended. */
  done: Promise<number | null>;
  /** Kills the whole process group. */
  kill(): void;
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function runStep(config: SandboxConfig, step: Step, env: Record<string, string>, trace: TraceWriter, stdout?: Writable): ShellRun {
  const { file, args, cwd } = stepCommand(config, step);
  const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (stdout) child.stdout.pipe(stdout, { end: false });
  else child.stdout.on('data', (d: Buffer) => trace.write(d));
  child.stderr.on('data', (d: Buffer) => trace.write(d));
  const done = new Promise<number | null>((resolve) => {
    child.on('error', (err) => {
      trace.note(`ERROR: ${err.message}`);
      resolve(null);
    });
    // Whatever the step left running in its group (a `sleep &`) ends with it, and with it
    // the output pipes it held open.
    child.on('exit', () => killGroup(child.pid));
    child.on('close', (code) => resolve(code));
  });
  return { done, kill: () => killGroup(child.pid) };
}

export interface RunControl {
  /** Set by the runner when the job must stop (a cancel seen, the timeout, the server stopping). */
  stopReason(): StopReason | null;
  /** Registers the kill of the current step. */
  onKill(kill: (() => void) | null): void;
  /** Stops the job from within (its files grew past their limit). */
  stop(reason: StopReason): void;
}

/** Runs a step unless the job is stopping, killable by the runner while it runs; its exit code. */
export async function runControlled(
  config: SandboxConfig,
  step: Step,
  env: Record<string, string>,
  trace: TraceWriter,
  control: RunControl,
  stdout?: Writable,
): Promise<number | null> {
  if (control.stopReason()) return null;
  const run = runStep(config, step, env, trace, stdout);
  control.onKill(run.kill);
  try {
    return await run.done;
  } finally {
    control.onKill(null);
  }
}
