// Which files differ between two trees, in git's output order, with git's default rename
// detection: exact renames (same blob) first, then pairs whose content is at least 50%
// similar by git's own estimate (diffcore-delta: chunks up to 64 bytes or a line, bytes in
// common over the larger file). Unchanged subtrees are skipped by id, so cost follows the
// size of the change, not of the tree.
import { readBlob, readTree as readTreeEntries } from './odb.js';

export interface FileChange {
  oldPath: string;
  newPath: string;
  /** Octal mode strings; "0" when the side does not exist. */
  oldMode: string;
  newMode: string;
  oldOid: string | null;
  newOid: string | null;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
}

interface Entry {
  path: string;
  mode: string;
  oid: string;
  type: string;
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function readTree(gitdir: string, oid: string | null): Promise<Entry[]> {
  if (!oid || oid === EMPTY_TREE) return [];
  const tree = await readTreeEntries(gitdir, oid);
  return tree.map((e) => ({ path: e.name, mode: e.mode, oid: e.oid, type: e.type }));
}

// git sorts tree entries as if directories had a trailing "/"; byte order, not locale.
const sortKey = (e: Entry) => (e.type === 'tree' ? `${e.path}/` : e.path);
const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
const fileType = (mode: string) => mode.slice(0, -4).padStart(2, '0'); // "10", "12", "16"

/** Every changed file between two trees (either may be null = empty), renames unpaired. */
async function walk(gitdir: string, oldTree: string | null, newTree: string | null, prefix: string, out: FileChange[]): Promise<void> {
  const [olds, news] = await Promise.all([readTree(gitdir, oldTree), readTree(gitdir, newTree)]);
  olds.sort((x, y) => cmp(sortKey(x), sortKey(y)));
  news.sort((x, y) => cmp(sortKey(x), sortKey(y)));
  let i = 0;
  let j = 0;
  while (i < olds.length || j < news.length) {
    const o = olds[i];
    const n = news[j];
    const c = !o ? 1 : !n ? -1 : cmp(sortKey(o), sortKey(n));
    if (c === 0) {
      i++;
      j++;
      if (o.oid === n.oid && o.mode === n.mode) continue;
      const path = prefix + o.path;
      if (o.type === 'tree') await walk(gitdir, o.oid, n.oid, `${path}/`, out);
      else if (fileType(o.mode) !== fileType(n.mode)) {
        // A type change (file ↔ symlink ↔ submodule) is a delete then an add, as git shows it.
        out.push(deleted(path, o), added(path, n));
      } else {
        out.push({ oldPath: path, newPath: path, oldMode: o.mode, newMode: n.mode, oldOid: o.oid, newOid: n.oid, status: 'modified' });
      }
    } else if (c < 0) {
      i++;
      if (o.type === 'tree') await walk(gitdir, o.oid, null, `${prefix}${o.path}/`, out);
      else out.push(deleted(prefix + o.path, o));
    } else {
      j++;
      if (n.type === 'tree') await walk(gitdir, null, n.oid, `${prefix}${n.path}/`, out);
      else out.push(added(prefix + n.path, n));
    }
  }
}

function deleted(path: string, e: Entry): FileChange {
  return { oldPath: path, newPath: path, oldMode: e.mode, newMode: '0', oldOid: e.oid, newOid: null, status: 'deleted' };
}

function added(path: string, e: Entry): FileChange {
  return { oldPath: path, newPath: path, oldMode: '0', newMode: e.mode, oldOid: null, newOid: e.oid, status: 'added' };
}

// Inexact rename detection compares every deleted file with every added one; past this many
// pairs it is skipped (git's diff.renameLimit plays the same role).
const MAX_RENAME_PAIRS = 100 * 100;
const MIN_SCORE = 0.5;

/** git's diffcore-delta fingerprint: bytes per chunk hash (a line, or 64 bytes). */
function fingerprint(buf: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>();
  let hash = 0;
  let n = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === 13 && buf[i + 1] === 10) continue; // CRLF counts as LF
    hash = (Math.imul(hash, 31) + c) | 0;
    n++;
    if (c === 10 || n >= 64) {
      counts.set(hash, (counts.get(hash) ?? 0) + n);
      hash = 0;
      n = 0;
    }
  }
  if (n) counts.set(hash, (counts.get(hash) ?? 0) + n);
  return counts;
}

function similarity(a: Map<number, number>, sizeA: number, b: Map<number, number>, sizeB: number): number {
  let common = 0;
  for (const [h, na] of a) {
    const nb = b.get(h);
    if (nb) common += Math.min(na, nb);
  }
  return common / Math.max(sizeA, sizeB);
}

/** Pairs deletions with additions as renames, in place; the rename takes the new path's slot. */
async function detectRenames(gitdir: string, changes: FileChange[]): Promise<FileChange[]> {
  const dels = changes.filter((c) => c.status === 'deleted' && fileType(c.oldMode) === '10');
  const adds = changes.filter((c) => c.status === 'added' && fileType(c.newMode) === '10');
  if (!dels.length || !adds.length) return changes;
  const renamedFrom = new Map<FileChange, FileChange>(); // add → its source deletion
  const used = new Set<FileChange>();
  // Exact renames: same blob; a source with the same file name is preferred, as in git.
  const byOid = new Map<string, FileChange[]>();
  for (const d of dels) byOid.set(d.oldOid!, [...(byOid.get(d.oldOid!) ?? []), d]);
  for (const a of adds) {
    const sources = (byOid.get(a.newOid!) ?? []).filter((d) => !used.has(d));
    if (!sources.length) continue;
    const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
    const src = sources.find((d) => base(d.oldPath) === base(a.newPath)) ?? sources[0];
    used.add(src);
    renamedFrom.set(a, src);
  }
  const restDels = dels.filter((d) => !used.has(d));
  const restAdds = adds.filter((a) => !renamedFrom.has(a));
  if (restDels.length && restAdds.length && restDels.length * restAdds.length <= MAX_RENAME_PAIRS) {
    const load = (oid: string) => readBlob(gitdir, oid);
    const prints = new Map<string, { fp: Map<number, number>; size: number }>();
    const printOf = async (oid: string) => {
      let p = prints.get(oid);
      if (!p) {
        const blob = await load(oid);
        p = { fp: fingerprint(blob), size: blob.length };
        prints.set(oid, p);
      }
      return p;
    };
    const scored: { score: number; add: FileChange; del: FileChange }[] = [];
    for (const a of restAdds) {
      const pa = await printOf(a.newOid!);
      if (!pa.size) continue;
      for (const d of restDels) {
        const pd = await printOf(d.oldOid!);
        if (!pd.size) continue;
        // Cheap bound first: the smaller file cannot share more than its own size.
        if (Math.min(pa.size, pd.size) / Math.max(pa.size, pd.size) < MIN_SCORE) continue;
        const score = similarity(pd.fp, pd.size, pa.fp, pa.size);
        if (score >= MIN_SCORE) scored.push({ score, add: a, del: d });
      }
    }
    scored.sort((x, y) => y.score - x.score);
    for (const s of scored) {
      if (renamedFrom.has(s.add) || used.has(s.del)) continue;
      used.add(s.del);
      renamedFrom.set(s.add, s.del);
    }
  }
  if (!renamedFrom.size) return changes;
  const out: FileChange[] = [];
  for (const c of changes) {
    if (used.has(c)) continue;
    const src = renamedFrom.get(c);
    if (src) out.push({ ...c, oldPath: src.oldPath, oldMode: src.oldMode, oldOid: src.oldOid, status: 'renamed' });
    else out.push(c);
  }
  return out;
}

/** The changed files between two trees (null = the empty tree), renames detected. */
export async function diffTrees(gitdir: string, oldTree: string | null, newTree: string | null): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  await walk(gitdir, oldTree, newTree, '', changes);
  return detectRenames(gitdir, changes);
}
