// One writer at a time per repository inside this process. Writers build their objects
// outside the lock and take it only to compare-and-swap the ref, so it is held for
// milliseconds. Across processes (several API processes, `git push`, git gc) the ref update
// itself is guarded by git's own lock file, `<ref>.lock` created with O_EXCL (see refs.ts):
// that is the file lock a multi-process deployment needs, and real git honours it too.

interface Slot {
  tail: Promise<void>;
  /** Callers waiting for or holding the lock. */
  pending: number;
}

const slots = new Map<string, Slot>();

/** Runs `fn` while holding the lock of `gitdir`; callers run in arrival order. */
export async function withRepoLock<T>(gitdir: string, fn: () => Promise<T>): Promise<T> {
  let slot = slots.get(gitdir);
  if (!slot) {
    slot = { tail: Promise.resolve(), pending: 0 };
    slots.set(gitdir, slot);
  }
  const s = slot;
  s.pending++;
  const previous = s.tail;
  let release!: () => void;
  s.tail = new Promise<void>((resolve) => (release = resolve));
  try {
    await previous;
    return await fn();
  } finally {
    release();
    if (--s.pending === 0 && slots.get(gitdir) === s) slots.delete(gitdir);
  }
}

/** How many callers hold or wait for the lock of `gitdir` (for tests and diagnostics). */
export function repoLockPending(gitdir: string): number {
  return slots.get(gitdir)?.pending ?? 0;
}
