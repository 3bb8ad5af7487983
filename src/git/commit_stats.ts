// Commit stats for the commits API as GitLab 10.8 reports them (Gitlab::Git::CommitStats, the
// Rugged diff against the first parent with rename detection): added and deleted lines, a
// root commit against nothing, binary files counting zero, an exact rename counting zero, a
// submodule bump one line each way. Only subtrees that differ are read; cached by commit id.
import { countChanges } from './diff_lines.js';
import type { RepoReader, RawTreeEntry } from './reader.js';
import { Lru } from './lru.js';

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

interface Side {
  oid: string;
  mode: string;
  type: RawTreeEntry['type'];
}

interface Change {
  old: Side | null;
  new: Side | null;
}

const statsCache = new Lru<string, CommitStats>(20_000);

/** Files whose id or mode differ between two trees (either may be absent). */
async function changedFiles(reader: RepoReader, a: string | null, b: string | null, out: Change[]): Promise<void> {
  if (a === b) return;
  const left = a ? ((await reader.treeEntries(a)) ?? []) : [];
  const right = b ? ((await reader.treeEntries(b)) ?? []) : [];
  const byName = new Map<string, { l?: RawTreeEntry; r?: RawTreeEntry }>();
  for (const e of left) byName.set(e.name, { l: e });
  for (const e of right) byName.set(e.name, { ...byName.get(e.name), r: e });
  for (const { l, r } of byName.values()) {
    if (l && r && l.oid === r.oid && l.mode === r.mode) continue;
    const lTree = l?.type === 'tree' ? l : undefined;
    const rTree = r?.type === 'tree' ? r : undefined;
    if (lTree || rTree) await changedFiles(reader, lTree?.oid ?? null, rTree?.oid ?? null, out);
    const lFile = l && l.type !== 'tree' ? l : null;
    const rFile = r && r.type !== 'tree' ? r : null;
    if (lFile || rFile) out.push({ old: lFile, new: rFile });
  }
}

/** Git's binary test: a NUL byte in the first 8000 bytes. */
export function isBinary(data: Uint8Array): boolean {
  const n = Math.min(data.length, 8000);
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}

/** Added and deleted line counts between two texts (a shortest edit script's, as `diff` gave). */
export function lineCounts(oldData: Uint8Array, newData: Uint8Array): { additions: number; deletions: number } {
  const text = (d: Uint8Array) => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('latin1'); // byte-exact
  return countChanges(text(oldData), text(newData));
}

async function content(reader: RepoReader, side: Side | null): Promise<Uint8Array> {
  if (!side) return new Uint8Array();
  // A submodule diffs as one "Subproject commit <id>" line.
  if (side.type === 'commit') return Buffer.from(`Subproject commit ${side.oid}\n`);
  return (await reader.blob(side.oid)) ?? new Uint8Array();
}

/** Pairs deleted and added files with the same content (exact renames): they count nothing. */
function pairExactRenames(changes: Change[]): void {
  const deleted = new Map<string, Change[]>();
  for (const c of changes) {
    if (c.old && !c.new && c.old.type === 'blob') deleted.set(c.old.oid, [...(deleted.get(c.old.oid) ?? []), c]);
  }
  for (const c of changes) {
    if (c.old || !c.new || c.new.type !== 'blob') continue;
    const source = deleted.get(c.new.oid)?.shift();
    if (!source) continue;
    c.old = c.new;
    source.new = source.old;
  }
}

export async function commitStats(reader: RepoReader, commitOid: string): Promise<CommitStats> {
  const key = `${reader.gitdir}\0${commitOid}`;
  const cached = statsCache.get(key);
  if (cached) return cached;
  const commit = await reader.commit(commitOid);
  const parentTree = commit.parents.length ? (await reader.commit(commit.parents[0])).tree : null;
  const changes: Change[] = [];
  await changedFiles(reader, parentTree, commit.tree, changes);
  pairExactRenames(changes);
  let additions = 0;
  let deletions = 0;
  for (const c of changes) {
    if (c.old && c.new && c.old.oid === c.new.oid && c.old.type === c.new.type) continue; // mode change or rename
    const [before, after] = await Promise.all([content(reader, c.old), content(reader, c.new)]);
    if (isBinary(before) || isBinary(after)) continue;
    const counts = lineCounts(before, after);
    additions += counts.additions;
    deletions += counts.deletions;
  }
  const stats = { additions, deletions, total: additions + deletions };
  statsCache.set(key, stats);
  return stats;
}
