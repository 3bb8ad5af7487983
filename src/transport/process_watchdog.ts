// A git process started in a process group of its own (detached), watched for idleness: no
// input or output for the idle bound, or a stop asked for (client gone), sends the whole
// group SIGTERM, then SIGKILL after a grace period, so that no git or hook it started is left
// behind. Shared by smart HTTP (spawn.ts) and SSH (ssh_channel_git.ts).
import type { ChildProcess } from 'node:child_process';

/** How long a git command may go without input or output. */
const DEFAULT_IDLE_MS = 10 * 60_000;
const KILL_GRACE_MS = 10_000;

export interface Watchdog {
  /** Ends the group: SIGTERM now, SIGKILL after the grace period (no-op once disposed). */
  stop(): void;
  /** Something moved: the idle bound starts again. */
  touch(): void;
  /** The process is done: no more signals, timers cleared. */
  dispose(): void;
}

export function processGroupWatchdog(child: ChildProcess, idleMs = DEFAULT_IDLE_MS): Watchdog {
  let idle: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let disposed = false;
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  const stop = () => {
    if (disposed) return;
    signal('SIGTERM');
    killTimer ??= setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS).unref();
  };
  return {
    stop,
    touch() {
      if (disposed) return;
      clearTimeout(idle);
      idle = setTimeout(stop, idleMs).unref();
    },
    dispose() {
      disposed = true;
      clearTimeout(idle);
      clearTimeout(killTimer);
    },
  };
}
