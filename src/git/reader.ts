// Reading a bare repository: refs, commits, trees and blobs, through isomorphic-git with
// the repository's shared object cache.
import fs from 'node:fs';
import git from 'isomorphic-git';
import { cacheFor } from './cache.js';

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
    return git.listTags({ fs, gitdir: this.gitdir });
  }

  /**
   * A branch, tag, full or abbreviated commit id → the commit id, or null. Branches win over
   * tags, as in GitLab; annotated tags are peeled to their commit.
   */
  async resolveCommit(ref: string): Promise<string | null> {
    if (!ref || ref.includes('..') || ref.startsWith('-')) return null;
    const candidates = [`refs/heads/${ref}`, `refs/tags/${ref}`];
    if (ref.startsWith('refs/')) candidates.unshift(ref);
    for (const candidate of candidates) {
      try {
        const oid = await git.resolveRef({ fs, gitdir: this.gitdir, ref: candidate });
        return await this.peelToCommit(oid);
      } catch {
        // next candidate
      }
    }
    if (FULL_SHA.test(ref) || SHORT_SHA.test(ref)) {
      try {
        const oid = FULL_SHA.test(ref) ? ref.toLowerCase() : await git.expandOid({ ...this.base, oid: ref.toLowerCase() });
        return await this.peelToCommit(oid);
      } catch {
        return null;
      }
    }
    return null;
  }

  private async peelToCommit(oid: string): Promise<string | null> {
    let current = oid;
    for (let i = 0; i < 10; i++) {
      const obj = await git.readObject({ ...this.base, oid: current, format: 'parsed' });
      if (obj.type === 'commit') return current;
      if (obj.type !== 'tag') return null;
      current = (obj.object as { object: string }).object;
    }
    return null;
  }

  async commit(oid: string): Promise<CommitInfo> {
    const { commit } = await git.readCommit({ ...this.base, oid });
    return { oid, parents: commit.parent, tree: commit.tree, message: commit.message, author: commit.author, committer: commit.committer };
  }

  /**
   * The entries of `path` in the commit's tree (recursively: every entry below it, each tree
   * before its contents), or null when the path is not a directory there.
   */
  async tree(commitOid: string, path: string, recursive: boolean): Promise<TreeEntry[] | null> {
    const clean = path.replace(/^\/+|\/+$/g, '');
    let treeOid: string;
    try {
      treeOid = (await git.readTree({ ...this.base, oid: commitOid, filepath: clean || undefined })).oid;
    } catch {
      return null;
    }
    const out: TreeEntry[] = [];
    const visit = async (oid: string, prefix: string): Promise<void> => {
      const { tree } = await git.readTree({ ...this.base, oid });
      // GitLab lists trees, then blobs, then submodules, each in git's (byte) order.
      const rank = (t: string) => (t === 'tree' ? 0 : t === 'blob' ? 1 : 2);
      const sorted = [...tree].sort((a, b) => rank(a.type) - rank(b.type));
      for (const e of sorted) {
        const entryPath = prefix ? `${prefix}/${e.path}` : e.path;
        out.push({ id: e.oid, name: e.path, type: e.type, path: entryPath, mode: e.mode.padStart(6, '0') });
        if (recursive && e.type === 'tree') await visit(e.oid, entryPath);
      }
    };
    await visit(treeOid, clean);
    return out;
  }

  async blob(oid: string): Promise<Uint8Array | null> {
    try {
      const { blob } = await git.readBlob({ ...this.base, oid });
      return blob;
    } catch {
      return null;
    }
  }

  /** The blob at `path` in a commit, with its id, or null. */
  async blobAt(commitOid: string, path: string): Promise<{ oid: string; content: Uint8Array } | null> {
    try {
      const { oid, blob } = await git.readBlob({ ...this.base, oid: commitOid, filepath: path });
      return { oid, content: blob };
    } catch {
      return null;
    }
  }
}
