// A fast read-only object database for bare repositories: pack index (v2) lookups in memory,
// positional reads of the pack file, native zlib, and git's "delta base cache" (resolved
// objects kept in a byte-bounded LRU keyed by pack offset), so walking a delta chain of
// depth 50 costs one inflate per link once, not once per read. isomorphic-git's reader reads
// the whole rest of the pack for each inflate (pako), probes the loose object directory
// first and re-lists the pack folder on every call; on a real repository that was the bulk
// of the time of contributors, compare and archives (bench/repository.ts measures them).
//
// Everything here is synchronous: each call does a few small reads and one inflate. Objects
// are immutable by id, so caches never go stale; new packs and loose objects written by a
// push are found because a miss re-lists the pack folder before giving up. Callers that want
// isomorphic-git's fallback (pack formats this reader does not know) use `readObject` from
// reader paths, which returns null rather than throwing.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import git from './iso.js';
import { cacheFor } from './cache.js';
import { retryPackRace } from './pack_race.js';
import { Lru } from './lru.js';
import { splitIdentity } from './identity.js';

type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export interface GitObject {
  type: ObjectType;
  data: Buffer;
}

const TYPES: (ObjectType | null)[] = [null, 'commit', 'tree', 'blob', 'tag', null, null, null];
const OFS_DELTA = 6;
const REF_DELTA = 7;

// Resolved pack objects by "<pack id>:<offset>", shared by every repository of the process.
// Bounded by bytes; a single object bigger than a quarter of it is never kept.
const BASE_CACHE_BYTES = 96 * 1024 * 1024;
const baseCache = new Lru<string, GitObject>(BASE_CACHE_BYTES, (o) => o.data.length + 64);
let packIds = 0;
// A pack's file stays open while the Pack is reachable: a read in progress elsewhere may
// still hold it after a rescan or a store eviction, so descriptors close on collection only.
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
});

/** Applies a git delta to its base. */
export function applyDelta(delta: Buffer, base: Buffer): Buffer {
  let p = 0;
  const varint = () => {
    let n = 0;
    let shift = 0;
    let b: number;
    do {
      b = delta[p++];
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return n;
  };
  const baseSize = varint();
  if (baseSize !== base.length) throw new Error(`delta base size ${baseSize} != ${base.length}`);
  const size = varint();
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  while (p < delta.length) {
    const op = delta[p++];
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      if (op & 0x01) off |= delta[p++];
      if (op & 0x02) off |= delta[p++] << 8;
      if (op & 0x04) off |= delta[p++] << 16;
      if (op & 0x08) off = (off | (delta[p++] << 24)) >>> 0;
      if (op & 0x10) len |= delta[p++];
      if (op & 0x20) len |= delta[p++] << 8;
      if (op & 0x40) len |= delta[p++] << 16;
      if (len === 0) len = 0x10000;
      if (off + len > base.length || o + len > size) throw new Error('corrupt delta (copy out of range)');
      base.copy(out, o, off, off + len);
      o += len;
    } else if (op) {
      if (o + op > size || p + op > delta.length) throw new Error('corrupt delta (insert out of range)');
      delta.copy(out, o, p, p + op);
      o += op;
      p += op;
    } else {
      throw new Error('corrupt delta (opcode 0)');
    }
  }
  if (o !== size) throw new Error('corrupt delta (size mismatch)');
  return out;
}

class Pack {
  readonly id = ++packIds;
  private readonly fd: number;
  private readonly fanout: Uint32Array;
  private readonly oids: Buffer;
  private readonly offsets: Float64Array; // index order
  private readonly sorted: Float64Array; // ascending, ends with the trailer position
  private readonly header = Buffer.alloc(32);

  constructor(
    readonly name: string,
    idxPath: string,
    packPath: string,
  ) {
    const idx = fs.readFileSync(idxPath);
    if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) throw new Error(`${idxPath}: not a v2 pack index`);
    this.fanout = new Uint32Array(256);
    for (let i = 0; i < 256; i++) this.fanout[i] = idx.readUInt32BE(8 + i * 4);
    const n = this.fanout[255];
    const oidsAt = 8 + 256 * 4;
    this.oids = idx.subarray(oidsAt, oidsAt + n * 20);
    const offsAt = oidsAt + n * 20 + n * 4;
    const largeAt = offsAt + n * 4;
    this.offsets = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = idx.readUInt32BE(offsAt + i * 4);
      if (v & 0x80000000) {
        const k = v & 0x7fffffff;
        this.offsets[i] = idx.readUInt32BE(largeAt + k * 8) * 2 ** 32 + idx.readUInt32BE(largeAt + k * 8 + 4);
      } else {
        this.offsets[i] = v;
      }
    }
    this.fd = fs.openSync(packPath, 'r');
    closer.register(this, this.fd);
    const size = fs.fstatSync(this.fd).size;
    this.sorted = new Float64Array(n + 1);
    this.sorted.set(this.offsets);
    this.sorted[n] = size - 20;
    this.sorted.sort();
  }

  /** The pack offset of an object, or -1. */
  find(oid: Buffer): number {
    const first = oid[0];
    let lo = first === 0 ? 0 : this.fanout[first - 1];
    let hi = this.fanout[first];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.oids.compare(oid, 0, 20, mid * 20, mid * 20 + 20);
      if (c === 0) return this.offsets[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Where the object starting at `offset` ends (the next object's start). */
  private end(offset: number): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    return this.sorted[lo];
  }

  /** The object at `offset`, deltas resolved through the shared base cache. */
  read(offset: number, store: ObjectStore): GitObject {
    const key = `${this.id}:${offset}`;
    const cached = baseCache.get(key);
    if (cached) return cached;
    const h = this.header;
    const got = fs.readSync(this.fd, h, 0, 32, offset);
    let p = 0;
    let b = h[p++];
    const kind = (b >> 4) & 7;
    let size = b & 15;
    let shift = 4;
    while (b & 0x80) {
      b = h[p++];
      size += (b & 0x7f) * 2 ** shift;
      shift += 7;
    }
    let baseObj: GitObject | null = null;
    if (kind === OFS_DELTA) {
      b = h[p++];
      let rel = b & 0x7f;
      while (b & 0x80) {
        b = h[p++];
        rel = (rel + 1) * 128 + (b & 0x7f);
      }
      baseObj = this.read(offset - rel, store);
    } else if (kind === REF_DELTA) {
      const baseOid = Buffer.from(h.subarray(p, p + 20));
      p += 20;
      baseObj = store.read(baseOid.toString('hex'));
      if (!baseObj) throw new Error(`missing delta base ${baseOid.toString('hex')}`);
    } else if (!TYPES[kind]) {
      throw new Error(`unknown pack object type ${kind} at ${offset}`);
    }
    if (p > got) throw new Error(`truncated pack object at ${offset}`);
    const start = offset + p;
    const len = this.end(offset) - start;
    const compressed = Buffer.allocUnsafe(len);
    fs.readSync(this.fd, compressed, 0, len, start);
    const raw = zlib.inflateSync(compressed);
    if (raw.length !== size) throw new Error(`pack object at ${offset}: size ${raw.length} != ${size}`);
    const obj: GitObject = baseObj ? { type: baseObj.type, data: applyDelta(raw, baseObj.data) } : { type: TYPES[kind]!, data: raw };
    if (obj.data.length <= BASE_CACHE_BYTES / 4) baseCache.set(key, obj);
    return obj;
  }
}

/** Times one read lists the packs again while they keep changing under it. */
const RESCANS = 4;

/**
 * Small objects as read (inflated), by repository and id: a hot file, or the commit a branch
 * points at, is read from memory instead of opening and inflating its loose file on every
 * request. Keyed by repository, never by id alone, so an id only ever reads the repository
 * that has it. Objects are immutable; one pruned by gc stays readable here until evicted.
 */
const SMALL_OBJECT_BYTES = 64 * 1024;
const smallObjects = new Lru<string, GitObject>(8 * 1024 * 1024, (o) => o.data.length + 128);

export class ObjectStore {
  private packs: Pack[] = [];
  private listing = '';
  private alternates: ObjectStore[] | null = null;

  constructor(readonly gitdir: string) {
    this.rescan();
  }

  private objectsDir(): string {
    return path.join(this.gitdir, 'objects');
  }

  /** Re-lists objects/pack; keeps packs still present, opens new ones. Whether anything changed. */
  rescan(): boolean {
    const dir = path.join(this.objectsDir(), 'pack');
    let names: string[];
    try {
      names = fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.idx') && fs.existsSync(path.join(dir, n.slice(0, -4) + '.pack')))
        .sort();
    } catch {
      names = [];
    }
    const listing = names.join('\n');
    if (listing === this.listing && this.packs.length === names.length) return false;
    this.listing = listing;
    const old = new Map(this.packs.map((p) => [p.name, p]));
    const next: Pack[] = [];
    for (const n of names) {
      const kept = old.get(n);
      if (kept) {
        next.push(kept);
        old.delete(n);
        continue;
      }
      try {
        next.push(new Pack(n, path.join(dir, n), path.join(dir, n.slice(0, -4) + '.pack')));
      } catch {
        // an index being written, or a format this reader does not know: the caller falls back
      }
    }
    this.packs = next;
    return true;
  }

  private alternateStores(): ObjectStore[] {
    if (this.alternates) return this.alternates;
    this.alternates = [];
    try {
      const text = fs.readFileSync(path.join(this.objectsDir(), 'info', 'alternates'), 'utf8');
      for (const line of text.split('\n')) {
        const l = line.trim();
        if (!l || l.startsWith('#')) continue;
        const objects = path.resolve(this.objectsDir(), l);
        this.alternates.push(storeFor(path.dirname(objects)));
      }
    } catch {
      // none
    }
    return this.alternates;
  }

  private readLoose(oid: string): GitObject | null {
    let file: Buffer;
    try {
      file = fs.readFileSync(path.join(this.objectsDir(), oid.slice(0, 2), oid.slice(2)));
    } catch {
      return null;
    }
    const raw = zlib.inflateSync(file);
    const sp = raw.indexOf(32);
    const nul = raw.indexOf(0, sp);
    const type = raw.subarray(0, sp).toString('latin1') as ObjectType;
    if (!['commit', 'tree', 'blob', 'tag'].includes(type)) throw new Error(`bad loose object ${oid}`);
    return { type, data: raw.subarray(nul + 1) };
  }

  private readPacked(key: Buffer): GitObject | null {
    for (const p of this.packs) {
      const off = p.find(key);
      if (off >= 0) return p.read(off, this);
    }
    return null;
  }

  /** An object by full hex id, or null when absent. Throws on corrupt data. */
  read(oid: string, depth = 0): GitObject | null {
    if (oid === EMPTY_TREE) return { type: 'tree', data: Buffer.alloc(0) };
    if (!/^[0-9a-f]{40}$/.test(oid)) return null;
    const key = `${this.gitdir}\0${oid}`;
    const cached = smallObjects.get(key);
    if (cached) return cached;
    const found = this.readUncached(oid, depth);
    if (found && found.data.length <= SMALL_OBJECT_BYTES) smallObjects.set(key, found);
    return found;
  }

  private readUncached(oid: string, depth: number): GitObject | null {
    const key = Buffer.from(oid, 'hex');
    // A repack beside us (housekeeping, or git after a push) moves objects from loose files
    // and old packs into a new pack, which it writes before deleting anything: an object
    // missed here is looked for again in the packs listed afresh, then loose again (a pack
    // listed may itself be gone before it is opened). Packs already open stay readable.
    for (let pass = 0; pass < RESCANS; pass++) {
      const found = this.readPacked(key) ?? this.readLoose(oid);
      if (found) return found;
      if (!this.rescan()) break;
    }
    if (depth < 5) {
      for (const alt of this.alternateStores()) {
        const o = alt.read(oid, depth + 1);
        if (o) return o;
      }
    }
    return null;
  }
}

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const MAX_STORES = 64;
const stores = new Map<string, ObjectStore>();

/** The shared store of `gitdir` (bounded number of repositories, least recently used dropped). */
export function storeFor(gitdir: string): ObjectStore {
  let s = stores.get(gitdir);
  if (s) {
    stores.delete(gitdir);
  } else {
    s = new ObjectStore(gitdir);
    if (stores.size >= MAX_STORES) stores.delete(stores.keys().next().value!);
  }
  stores.set(gitdir, s);
  return s;
}

/** Reads an object, or null when absent or unreadable here (the caller may fall back). */
export function tryRead(gitdir: string, oid: string): GitObject | null {
  try {
    return storeFor(gitdir).read(oid);
  } catch {
    return null;
  }
}

export interface ParsedTreeEntry {
  name: string;
  oid: string;
  type: 'tree' | 'blob' | 'commit';
  /** Six digits, canonical as git compares them: 040000, 100644, 100755, 120000, 160000. */
  mode: string;
}

function canonicalMode(raw: string): string {
  const m = parseInt(raw, 8);
  switch (m & 0o170000) {
    case 0o040000:
      return '040000';
    case 0o120000:
      return '120000';
    case 0o160000:
      return '160000';
    default:
      return m & 0o100 ? '100755' : '100644';
  }
}

/** A tree object's entries in stored (git) order. */
export function parseTree(data: Buffer): ParsedTreeEntry[] {
  const out: ParsedTreeEntry[] = [];
  let p = 0;
  while (p < data.length) {
    const sp = data.indexOf(32, p);
    const nul = data.indexOf(0, sp + 1);
    if (sp < 0 || nul < 0 || nul + 21 > data.length) throw new Error('corrupt tree');
    const rawMode = data.toString('latin1', p, sp);
    const mode = rawMode === '40000' ? '040000' : rawMode === '100644' || rawMode === '100755' || rawMode === '120000' || rawMode === '160000' ? rawMode : canonicalMode(rawMode);
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    out.push({ name: data.toString('utf8', sp + 1, nul), oid: data.toString('hex', nul + 1, nul + 21), type, mode });
    p = nul + 21;
  }
  return out;
}

export interface ParsedCommit {
  tree: string;
  parent: string[];
  message: string;
  author: { name: string; email: string; timestamp: number; timezoneOffset: number };
  committer: { name: string; email: string; timestamp: number; timezoneOffset: number };
}

// The same reading as isomorphic-git's GitCommit#parse, so answers do not change with the reader.
function normalizeNewlines(str: string): string {
  return (
    str
      .replace(/\r/g, '')
      .replace(/^\n+/, '')
      .replace(/(?<!\n)\n+$/, '') + '\n'
  );
}

function parseAuthor(author: string) {
  const m = splitIdentity(author);
  if (!m) throw new Error('unparsable identity');
  const [name, email, timestamp, offset] = m;
  const tz = offset.match(/(\+|-)(\d\d)(\d\d)/);
  if (!tz) throw new Error('unparsable timezone');
  const minutes = (tz[1] === '+' ? 1 : -1) * (Number(tz[2]) * 60 + Number(tz[3]));
  return { name, email, timestamp: Number(timestamp), timezoneOffset: minutes === 0 ? minutes : -minutes };
}

export function parseCommit(data: Buffer): ParsedCommit {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const message = normalizeNewlines(text.slice(split + 2));
  const hs: string[] = [];
  for (const h of text.slice(0, split).split('\n')) {
    if (h[0] === ' ') hs[hs.length - 1] += '\n' + h.slice(1);
    else hs.push(h);
  }
  const keyOf = (h: string) => h.slice(0, h.indexOf(' '));
  const valueOf = (h: string) => h.slice(h.indexOf(' ') + 1);
  if (hs.length === 0 || keyOf(hs[0]) !== 'tree') throw new Error('commit without a tree');
  const obj: Record<string, unknown> = { tree: valueOf(hs[0]), parent: [] as string[] };
  let i = 1;
  while (i < hs.length && keyOf(hs[i]) === 'parent') (obj.parent as string[]).push(valueOf(hs[i++]));
  const seen = new Set(['tree', 'parent']);
  for (; i < hs.length; i++) {
    const key = keyOf(hs[i]);
    if (seen.has(key)) continue;
    seen.add(key);
    obj[key] = valueOf(hs[i]);
  }
  if (typeof obj.author === 'string') obj.author = parseAuthor(obj.author);
  if (typeof obj.committer === 'string') obj.committer = parseAuthor(obj.committer);
  return { ...(obj as unknown as ParsedCommit), message };
}

/** A blob's bytes (isomorphic-git's answer, errors included, when this reader has none). */
export async function readBlob(gitdir: string, oid: string): Promise<Buffer> {
  const raw = tryRead(gitdir, oid);
  if (raw?.type === 'blob') return raw.data;
  const { blob } = await retryPackRace(() => git.readBlob({ fs, gitdir, oid, cache: cacheFor(gitdir) }));
  return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
}

/** A commit, parsed as isomorphic-git's readCommit parses it. */
export async function readCommit(gitdir: string, oid: string): Promise<ParsedCommit> {
  const raw = tryRead(gitdir, oid);
  if (raw?.type === 'commit') return parseCommit(raw.data);
  return (await retryPackRace(() => git.readCommit({ fs, gitdir, oid, cache: cacheFor(gitdir) }))).commit as ParsedCommit;
}

// Parsed trees by id; immutable, so shared by every repository. Weighed by entry count.
const parsedTrees = new Lru<string, ParsedTreeEntry[]>(200_000, (e) => 1 + e.length);

/** A tree's entries in git's order. */
export async function readTree(gitdir: string, oid: string): Promise<ParsedTreeEntry[]> {
  if (oid === EMPTY_TREE) return [];
  const cached = parsedTrees.get(oid);
  if (cached) return cached;
  const raw = tryRead(gitdir, oid);
  let entries: ParsedTreeEntry[] | null = null;
  if (raw?.type === 'tree') {
    try {
      entries = parseTree(raw.data);
    } catch {
      entries = null;
    }
  }
  if (!entries) {
    const { tree } = await retryPackRace(() => git.readTree({ fs, gitdir, oid, cache: cacheFor(gitdir) }));
    entries = tree.map((e) => ({ name: e.path, oid: e.oid, type: e.type, mode: e.mode }));
  }
  parsedTrees.set(oid, entries);
  return entries;
}

// The commits a shallow repository's `shallow` file lists: git treats them as having no
// parents (even when a parent happens to be present), in log, diff and merge-base alike.
const shallowFiles = new Map<string, { mtimeMs: number; size: number; set: Set<string> }>();
const NO_SHALLOW = new Set<string>();

/** The shallow boundary of `gitdir` (empty for a complete repository); one stat per call. */
export function shallowCommits(gitdir: string): Set<string> {
  const file = path.join(gitdir, 'shallow');
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    shallowFiles.delete(gitdir);
    return NO_SHALLOW;
  }
  const known = shallowFiles.get(gitdir);
  if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.set;
  const set = new Set(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  shallowFiles.set(gitdir, { mtimeMs: st.mtimeMs, size: st.size, set });
  return set;
}
