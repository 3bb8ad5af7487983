// Reads through isomorphic-git while `git repack` / `git gc` run beside them (housekeeping,
// or git itself after a push). A repack writes its new pack, then deletes the packs it
// replaced and the loose objects it packed: a reader that listed objects/pack just before
// may open a pack that is gone a moment later, and isomorphic-git then fails with an
// internal error ("Could not read packfile", or a TypeError on the vanished index) although
// the object is still in the repository, in the new pack. git itself re-reads the pack list
// and tries again (packfile.c reprepare_packed_git); so does this: a failure that is not
// "object not found" is retried a few times, each attempt listing the packs afresh
// (isomorphic-git keeps no failed load in its cache). An object really missing still
// throws NotFoundError at once; a corrupt one throws its error after the last attempt.

/** Attempts of one read: each lost race needs a repack finishing in between, so few suffice. */
const ATTEMPTS = 4;

function isNotFound(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'NotFoundError';
}

/** Runs an isomorphic-git object read, again when it failed for a reason other than a missing object. */
export async function retryPackRace<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      if (isNotFound(err) || attempt >= ATTEMPTS) throw err;
      await new Promise((r) => setImmediate(r));
    }
  }
}
