// A CI job's control group: the kernel bounds the memory and the number of processes of all the
// job's processes together (GitLab Runner's docker executor gets the same from docker's
// `memory` and `pids_limit`). Made beside the server's own cgroup, on cgroup v2 (a `wharf-jobs`
// group next to the server's, since v2 lets no process sit in a group that has children) or on
// v1's `memory` and `pids` hierarchies (below the server's own groups). A step enters it before
// it runs anything (sandbox.ts's launcher writes its pid into `cgroup.procs`, then execs). A
// machine where no group can be made (not root, no delegation) runs jobs without it: the
// runner logs that memory is then bounded only per process. A group left by a process that
// died (its name carries that process's pid) is emptied and removed at the runner's start.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup';
const PREFIX = 'wharf-job-';

export interface JobCgroup {
  /** The `cgroup.procs` files a step writes its pid into. */
  procsFiles: string[];
  /** Whether the kernel killed a process of the job for using more memory than its limit. */
  oomKilled(): boolean;
  remove(): Promise<void>;
}

interface Place {
  /** Folders that new groups are made in (one per hierarchy). */
  parents: string[];
  v2: boolean;
}

function ownPath(controller: string): string | null {
  for (const line of fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, list, p] = line.split(':');
    if (p !== undefined && (controller === '' ? list === '' : list.split(',').includes(controller))) return p;
  }
  return null;
}

function place(): Place | null {
  try {
    if (fs.existsSync(path.join(ROOT, 'cgroup.controllers'))) {
      const own = ownPath('');
      if (own === null) return null;
      const parent = path.join(ROOT, own === '/' ? '' : path.dirname(own), 'wharf-jobs');
      fs.mkdirSync(parent, { recursive: true });
      fs.writeFileSync(path.join(parent, 'cgroup.subtree_control'), '+memory +pids');
      return { parents: [parent], v2: true };
    }
    const parents: string[] = [];
    for (const controller of ['memory', 'pids']) {
      const own = ownPath(controller);
      if (own === null || !fs.existsSync(path.join(ROOT, controller, 'cgroup.procs'))) return null;
      parents.push(path.join(ROOT, controller, own));
    }
    return { parents, v2: false };
  } catch {
    return null;
  }
}

let cached: Place | null | undefined;

function writeLimit(dir: string, file: string, value: string, required: boolean): void {
  try {
    fs.writeFileSync(path.join(dir, file), value);
  } catch (err) {
    if (required) throw err;
  }
}

async function emptyAndRemove(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    }
    try {
      for (const pid of fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A group for job `buildId` with its limits, or null where this machine gives none. */
export function createJobCgroup(buildId: number, limits: { memoryBytes: number; processes: number }): JobCgroup | null {
  cached ??= place();
  if (!cached) return null;
  const { parents, v2 } = cached;
  const dirs = parents.map((p) => path.join(p, `${PREFIX}${process.pid}-${buildId}`));
  try {
    for (const dir of dirs) fs.mkdirSync(dir);
    const [memory, pids] = v2 ? [dirs[0], dirs[0]] : dirs;
    writeLimit(memory, v2 ? 'memory.max' : 'memory.limit_in_bytes', String(limits.memoryBytes), true);
    writeLimit(memory, v2 ? 'memory.swap.max' : 'memory.memsw.limit_in_bytes', v2 ? '0' : String(limits.memoryBytes), false);
    writeLimit(pids, 'pids.max', String(limits.processes), true);
  } catch {
    for (const dir of dirs) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // not made
      }
    }
    return null;
  }
  const memoryDir = dirs[0];
  return {
    procsFiles: dirs.map((d) => path.join(d, 'cgroup.procs')),
    oomKilled() {
      try {
        const events = fs.readFileSync(path.join(memoryDir, v2 ? 'memory.events' : 'memory.oom_control'), 'utf8');
        const m = /oom_kill (\d+)/.exec(events);
        return !!m && Number(m[1]) > 0;
      } catch {
        return false;
      }
    },
    async remove() {
      for (const dir of dirs) await emptyAndRemove(dir);
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Empties and removes the job groups of processes that are gone; answers how many. */
export async function clearStaleJobCgroups(): Promise<number> {
  cached ??= place();
  if (!cached) return 0;
  let cleared = 0;
  for (const parent of cached.parents) {
    for (const name of fs.readdirSync(parent)) {
      if (!name.startsWith(PREFIX)) continue;
      const owner = Number(name.slice(PREFIX.length).split('-')[0]);
      if (!Number.isSafeInteger(owner) || owner === process.pid || alive(owner)) continue;
      await emptyAndRemove(path.join(parent, name));
      cleared++;
    }
  }
  return cleared;
}

/** Whether this machine gives jobs a cgroup (for the runner's start-up message). */
export function cgroupsAvailable(): boolean {
  cached ??= place();
  return cached !== null;
}
