// One moved ref, as git's receive-pack reports it and as every API writer (files, commits,
// branches, merges) describes its own move: what the after-move work (push/ref_updates.ts) is
// given. A module of its own so that the writers, push events and the merge request refresh
// share the shape without importing one another.

/** One ref that moved: zeros (or '') in `oldOid` for a creation, in `newOid` for a deletion. */
export interface PushedRef {
  ref: string;
  oldOid: string;
  newOid: string;
}

export const ZERO_OID = '0000000000000000000000000000000000000000';
