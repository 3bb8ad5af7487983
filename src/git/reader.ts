// Reading a bare repository: refs, commits, trees and blobs, through isomorphic-git with
// the repository's shared object cache.
import fs from 'node:fs';
import git from './iso.js';
import path from 'node:path';
import { cacheFor } from './cache.js';
import { retryPackRace } from './pack_race.js';
import { Lru } from './lru.js';
import { parseCommit, parseTree, tryRead } from './odb.js';
import { isValidFullRef } from './ref_names.js';
import { listRefValues, readRef } from './refs.js';
import { MAX_REVISION_BYTES, parseRevision } from './revision.js';

export interface TreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  mode: string;
}

export interface CommitInfo {
  oid: string;
  parents: string[];
  tree: string;
  message: string;
  author: { name: string; email: string; timestamp: number; timezoneOffset: number };
  committer: { name: string; email: string; timestamp: number; timezoneOffset: number };
}

/** One entry of a tree object, in git's own order (a directory sorts as if named "dir/"). */
export interface RawTreeEntry {
  name: string;
  oid: string;
  type: 'tree' | 'blob' | 'commit';
  /** Zero-padded to six digits: "040000", "100644", "100755", "120000", "160000". */
  mode: string;
}

/** A tag ref: `target` is what the ref points at (the tag object of an annotated tag). */
export interface TagRef {
  name: string;
  target: string;
  /** The annotation's message without its final newline; null for a lightweight tag. */
  message: string | null;
  /** The commit the tag leads to, or null when it names a tree or blob. */
  commitOid: string | null;
}

// Parsed trees and commits, keyed by object id: immutable, so shared by every repository
// and never stale. Bounded by entry count.
const treeCache = new Lru<string, RawTreeEntry[]>(20_000, (entries) => 1 + (entries.length >> 4));
const commitCache = new Lru<string, CommitInfo>(50_000);
// The commit a ref's object peels to, by repository and object id: only for ids a ref of that
// repository points at (so the object is there); an id from a client is always read.
const peeledRefTargets = new Lru<string, string>(50_000);

/** Git's tree order: byte order of the names, a directory compared as "name/". */
function gitOrder(a: RawTreeEntry, b: RawTreeEntry): number {
  const ka = Buffer.from(a.type === 'tree' ? `${a.name}/` : a.name);
  const kb = Buffer.from(b.type === 'tree' ? `${b.name}/` : b.name);
  return Buffer.compare(ka, kb);
}

const FULL_SHA = /^[0-9a-f]{40}$/i;
const SHORT_SHA = /^[0-9a-f]{4,39}$/i;

export class RepoReader {
  private readonly cache: object;

  constructor(readonly gitdir: string) {
    this.cache = cacheFor(gitdir);
  }

  private get base() {
    return { fs, gitdir: this.gitdir, cache: this.cache };
  }

  /** The branch HEAD points at, whether or not it has commits yet. */
  async headBranch(): Promise<string | null> {
    try {
      return (await git.currentBranch({ fs, gitdir: this.gitdir, fullname: false })) ?? null;
    } catch {
      return null;
    }
  }

  async branches(): Promise<string[]> {
    return git.listBranches({ fs, gitdir: this.gitdir });
  }

  async tags(): Promise<string[]> {
    return [...(await listRefValues(this.gitdir, 'refs/tags/')).keys()].sort(); // gc-safe order (refs.ts)
  }

  /**
   * A branch, tag, full or abbreviated commit id → the commit id, or null. Branches win over
   * tags, as in GitLab; annotated tags are peeled to their commit.
   */
  async resolveCommit(ref: string): Promise<string | null> {
    if (!ref || ref.startsWith('-') || Buffer.byteLength(ref) > MAX_REVISION_BYTES) return null;
    const { base, steps } = parseRevision(ref);
    let oid = await this.resolveDirect(base);
    for (const step of steps) {
      if (!oid) return null;
      if (step.op === 'peel') continue; // resolveDirect peels to the commit already
      if (step.op === '^') {
        oid = step.count === 0 ? oid : ((await this.commit(oid)).parents[step.count - 1] ?? null);
      } else {
        // Each step goes one commit deeper: the walk is bounded by the history's depth.
        for (let i = 0; i < step.count && oid; i++) oid = (await this.commit(oid)).parents[0] ?? null;
      }
    }
    return oid;
  }

  private async resolveDirect(ref: string): Promise<string | null> {
    if (ref === 'HEAD') {
      try {
        return await this.peelToCommit(await this.resolveRef('HEAD'));
      } catch {
        return null;
      }
    }
    // Only names git could have reach the disk: `./master` or `../x.git/...` are no refs.
    const candidates = [`refs/heads/${ref}`, `refs/tags/${ref}`];
    if (ref.startsWith('refs/')) candidates.unshift(ref);
    for (const candidate of candidates.filter(isValidFullRef)) {
      try {
        return await this.peelRefTarget(await this.resolveRef(candidate));
      } catch {
        // next candidate
      }
    }
    if (FULL_SHA.test(ref) || SHORT_SHA.test(ref)) {
      try {
        const oid = FULL_SHA.test(ref) ? ref.toLowerCase() : await retryPackRace(() => git.expandOid({ ...this.base, oid: ref.toLowerCase() }));
        return await this.peelToCommit(oid);
      } catch {
        return null;
      }
    }
    return null;
  }

  /**
   * The object a ref (or HEAD) names. Read loose file first, then packed-refs, as git reads
   * them: `git pack-refs` (gc) writes packed-refs before it deletes the loose file, so this
   * order never misses a ref, while isomorphic-git's (packed-refs first) can, when a gc runs
   * between its two reads. isomorphic-git still resolves what this does not (symbolic refs
   * other than HEAD) and throws for a ref that does not exist.
   */
  private async resolveRef(ref: string): Promise<string> {
    let name = ref;
    if (ref === 'HEAD') {
      const head = await fs.promises.readFile(path.join(this.gitdir, 'HEAD'), 'utf8').catch(() => '');
      const target = /^ref: (refs\/\S+)\s*$/.exec(head);
      if (target) name = target[1];
    }
    const oid = name !== 'HEAD' ? await readRef(this.gitdir, name) : null;
    return oid ?? git.resolveRef({ fs, gitdir: this.gitdir, ref });
  }

  private async peelRefTarget(oid: string): Promise<string | null> {
    const key = `${this.gitdir}\0${oid}`;
    const cached = peeledRefTargets.get(key);
    if (cached) return cached;
    const commit = await this.peelToCommit(oid);
    if (commit) peeledRefTargets.set(key, commit);
    return commit;
  }

  private async peelToCommit(oid: string): Promise<string | null> {
    let current = oid;
    for (let i = 0; i < 10; i++) {
      const raw = tryRead(this.gitdir, current);
      if (raw) {
        if (raw.type === 'commit') return current;
        const target = raw.type === 'tag' ? /^object ([0-9a-f]{40})\n/.exec(raw.data.toString('latin1', 0, 48)) : null;
        if (!target) return null;
        current = target[1];
        continue;
      }
      const obj = await retryPackRace(() => git.readObject({ ...this.base, oid: current, format: 'parsed' }));
      if (obj.type === 'commit') return current;
      if (obj.type !== 'tag') return null;
      current = (obj.object as { object: string }).object;
    }
    return null;
  }

  async commit(oid: string): Promise<CommitInfo> {
    const cached = commitCache.get(oid);
    if (cached) return cached;
    const raw = tryRead(this.gitdir, oid);
    let commit;
    if (raw?.type === 'commit') {
      commit = parseCommit(raw.data);
    } else {
      // Not in a pack this reader knows, or a tag to peel: isomorphic-git decides (and throws).
      commit = (await retryPackRace(() => git.readCommit({ ...this.base, oid }))).commit;
    }
    const info = { oid, parents: commit.parent, tree: commit.tree, message: commit.message, author: commit.author, committer: commit.committer };
    commitCache.set(oid, info);
    return info;
  }

  /** The entries of a tree object in git's order (cached by id), or null if it is not a tree. */
  async treeEntries(treeOid: string): Promise<RawTreeEntry[] | null> {
    const cached = treeCache.get(treeOid);
    if (cached) return cached;
    const raw = tryRead(this.gitdir, treeOid);
    if (raw) {
      if (raw.type !== 'tree') return null;
      let parsed: RawTreeEntry[] | null = null;
      try {
        parsed = parseTree(raw.data); // stored in git's order already
      } catch {
        // fall through to isomorphic-git
      }
      if (parsed) {
        treeCache.set(treeOid, parsed);
        return parsed;
      }
    }
    let obj;
    try {
      obj = await retryPackRace(() => git.readObject({ ...this.base, oid: treeOid, format: 'parsed' }));
    } catch {
      return null;
    }
    if (obj.type !== 'tree') return null;
    const entries = (obj.object as { mode: string; path: string; oid: string; type: RawTreeEntry['type'] }[])
      .map((e) => ({ name: e.path, oid: e.oid, type: e.type, mode: e.mode.padStart(6, '0') }))
      .sort(gitOrder);
    treeCache.set(treeOid, entries);
    return entries;
  }

  /**
   * The entry at `path` below a tree (a path of names joined by "/"), or null. The empty
   * path is the tree itself.
   */
  async entryAt(treeOid: string, path: string): Promise<RawTreeEntry | null> {
    let current: RawTreeEntry = { name: '', oid: treeOid, type: 'tree', mode: '040000' };
    if (path === '') return current;
    for (const name of path.split('/')) {
      if (current.type !== 'tree') return null;
      const entries = await this.treeEntries(current.oid);
      const next = entries?.find((e) => e.name === name);
      if (!next) return null;
      current = next;
    }
    return current;
  }

  /** A full or abbreviated object id → the full id, or null when unknown or ambiguous. */
  async expand(sha: string): Promise<string | null> {
    if (FULL_SHA.test(sha)) return sha.toLowerCase();
    if (!SHORT_SHA.test(sha)) return null;
    try {
      return await retryPackRace(() => git.expandOid({ ...this.base, oid: sha.toLowerCase() }));
    } catch {
      return null;
    }
  }

  /** A blob by full or abbreviated id; null for anything that is not a blob (a tag is not peeled). */
  async blobById(sha: string): Promise<{ oid: string; content: Uint8Array } | null> {
    const oid = await this.expand(sha);
    if (!oid) return null;
    const raw = tryRead(this.gitdir, oid);
    if (raw) return raw.type === 'blob' ? { oid, content: raw.data } : null;
    try {
      const obj = await retryPackRace(() => git.readObject({ ...this.base, oid, format: 'content' }));
      if (obj.type !== 'blob') return null;
      return { oid, content: obj.object as Uint8Array };
    } catch {
      return null;
    }
  }

  /** Every tag with its target, annotation message and commit, sorted by name. */
  async tagRefs(): Promise<TagRef[]> {
    const names = (await this.tags()).sort();
    const out: TagRef[] = [];
    for (const name of names) {
      let target: string;
      try {
        target = await this.resolveRef(`refs/tags/${name}`);
      } catch {
        continue;
      }
      let message: string | null = null;
      try {
        const obj = await retryPackRace(() => git.readObject({ ...this.base, oid: target, format: 'parsed' }));
        if (obj.type === 'tag') message = (obj.object as { message: string }).message.replace(/(\r\n|\n|\r)$/, '');
      } catch {
        continue;
      }
      out.push({ name, target, message, commitOid: await this.peelToCommit(target).catch(() => null) });
    }
    return out;
  }

  /** The commits every ref (and HEAD) points at, for `git log --all`. */
  async allRefCommits(): Promise<string[]> {
    const refs = ['HEAD'];
    for (const dir of ['refs/heads', 'refs/tags']) {
      for (const name of await git.listRefs({ fs, gitdir: this.gitdir, filepath: dir }).catch(() => [] as string[])) {
        refs.push(`${dir}/${name}`);
      }
    }
    const oids = new Set<string>();
    for (const ref of refs) {
      try {
        const oid = await this.resolveRef(ref);
        const commit = await this.peelToCommit(oid);
        if (commit) oids.add(commit);
      } catch {
        // a dangling or non-commit ref is not part of the history
      }
    }
    return [...oids];
  }

  /**
   * The entries of `path` in the commit's tree, or null when the path is not a directory
   * there. Ordered as GitLab 10.8 lists them (Gitlab::Git::Tree + Tree#sorted_entries):
   * entries are collected in `git ls-tree [-r -t]` order (each directory followed by its
   * contents when recursive), then stably split into trees, then blobs, then submodules.
   */
  async tree(commitOid: string, path: string, recursive: boolean): Promise<TreeEntry[] | null> {
    const clean = path.replace(/(?<!\/)\/+$/, ''); // one start per run of slashes: linear
    let root: string;
    try {
      root = (await this.commit(commitOid)).tree;
    } catch {
      return null;
    }
    const start = clean === '' ? { oid: root, type: 'tree' } : await this.entryAt(root, clean);
    if (!start || start.type !== 'tree') return null;
    const collected: TreeEntry[] = [];
    const visit = async (oid: string, prefix: string): Promise<void> => {
      for (const e of (await this.treeEntries(oid)) ?? []) {
        const entryPath = prefix ? `${prefix}/${e.name}` : e.name;
        collected.push({ id: e.oid, name: e.name, type: e.type, path: entryPath, mode: e.mode });
        if (recursive && e.type === 'tree') await visit(e.oid, entryPath);
      }
    };
    await visit(start.oid, clean);
    const of = (type: TreeEntry['type']) => collected.filter((e) => e.type === type);
    return [...of('tree'), ...of('blob'), ...of('commit')];
  }

  async blob(oid: string): Promise<Uint8Array | null> {
    const raw = tryRead(this.gitdir, oid);
    if (raw?.type === 'blob') return raw.data;
    try {
      const { blob } = await retryPackRace(() => git.readBlob({ ...this.base, oid }));
      return blob;
    } catch {
      return null;
    }
  }

  /** The blob at `path` in a commit, with its id, or null. */
  async blobAt(commitOid: string, path: string): Promise<{ oid: string; content: Uint8Array } | null> {
    const raw = tryRead(this.gitdir, commitOid);
    if (raw?.type === 'commit' && path !== '' && !path.startsWith('/') && !path.endsWith('/')) {
      const entry = await this.entryAt(parseCommit(raw.data).tree, path);
      if (!entry || entry.type !== 'blob') return null;
      const content = await this.blob(entry.oid);
      return content ? { oid: entry.oid, content } : null;
    }
    try {
      const { oid, blob } = await retryPackRace(() => git.readBlob({ ...this.base, oid: commitOid, filepath: path }));
      return { oid, content: blob };
    } catch {
      return null;
    }
  }
}
