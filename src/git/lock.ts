// The repository lock: one holder at a time per repository, across every Wharf process that
// shares the repositories folder (several worker processes on one SQLite file, or several
// hosts on shared storage), not only inside this one. What takes it: every API write at the
// moment its ref moves (objects are written before, outside it, so it is held for
// milliseconds), and every change of where a repository lives (create, rename, transfer,
// delete), so that a writer never writes into a folder that is moving or going away.
//
// How: two layers. Inside the process, callers of one key queue in arrival order (a promise
// chain), so only the head of the queue touches the file system. Across processes, the
// holder owns a lock directory `<dir>/<key>.lock`, made with mkdir (atomic everywhere, NFS
// included) by proper-lockfile, a well-kept library that does exactly this: while held, it
// refreshes the directory's mtime every STALE_MS / 2; a lock whose mtime is older than
// STALE_MS belongs to a dead process (SIGKILL, OOM, power loss) and is taken over. A pid
// would not do across hosts, and a pid can be reused; a refreshed mtime needs neither. So
// after a crash the lock frees itself within STALE_MS, at start as on contention, without
// anyone clearing it. A waiter polls with backoff for up to WAIT_MS, then gives up
// (LockTimeoutError: the caller answers "busy, try again").
//
// Git's own lock files (`<ref>.lock`, see refs.ts) still guard each ref update underneath,
// which is what `git receive-pack` and other git processes honour.
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** A lock not refreshed for this long belongs to a dead process. proper-lockfile's minimum is 2 s. */
const STALE_MS = 10_000;
/** How long a caller waits for another process's lock: past a dead holder's STALE_MS, with room. */
const WAIT_MS = 45_000;
const MAX_POLL_MS = 100;

/** The lock stayed held by another live process for longer than a caller waits. */
export class LockTimeoutError extends Error {}

interface Slot {
  tail: Promise<void>;
  /** Callers waiting for or holding the lock in this process. */
  pending: number;
}

const KEY = /^[a-z0-9][a-z0-9-]{0,100}$/;

export class RepoLocks {
  private readonly slots = new Map<string, Slot>();

  /** `onCompromised`: the lock was taken over while held (this process stalled past STALE_MS). */
  constructor(
    readonly dir: string,
    private readonly onCompromised: (key: string, err: Error) => void = () => {},
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Runs `fn` while holding the lock named `key` (letters, digits, dashes); callers run in arrival order. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (!KEY.test(key)) throw new Error(`invalid lock name: ${key}`);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { tail: Promise.resolve(), pending: 0 };
      this.slots.set(key, slot);
    }
    const s = slot;
    s.pending++;
    const previous = s.tail;
    let done!: () => void;
    s.tail = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      const release = await this.acquire(key);
      try {
        return await fn();
      } finally {
        await release().catch(() => {}); // already taken over: onCompromised said so
      }
    } finally {
      done();
      if (--s.pending === 0 && this.slots.get(key) === s) this.slots.delete(key);
    }
  }

  /** How many callers of this process hold or wait for `key` (for tests and diagnostics). */
  pending(key: string): number {
    return this.slots.get(key)?.pending ?? 0;
  }

  private async acquire(key: string): Promise<() => Promise<void>> {
    try {
      return await lockfile.lock(path.join(this.dir, key), {
        realpath: false,
        lockfilePath: path.join(this.dir, `${key}.lock`),
        stale: STALE_MS,
        // 5 ms, growing to MAX_POLL_MS: a held lock is usually released within milliseconds.
        retries: { retries: Math.ceil(WAIT_MS / MAX_POLL_MS) + 10, factor: 1.5, minTimeout: 5, maxTimeout: MAX_POLL_MS, randomize: true },
        onCompromised: (err) => this.onCompromised(key, err),
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new LockTimeoutError(`${key} is held by another process`);
      throw err;
    }
  }
}
