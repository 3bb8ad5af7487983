// Building git objects in memory and writing them to a bare repository. Object ids are
// computed here (sha1 of the canonical encoding), so a request can decide whether its commit
// changes anything before a single object is written; `flush` then writes them loose
// through isomorphic-git. Commits are encoded by hand because isomorphic-git appends a
// newline to the message, and GitLab (Rugged) stores the message exactly as given.
import crypto from 'node:crypto';
import fs from 'node:fs';
import git from 'isomorphic-git';

export type ObjectType = 'blob' | 'tree' | 'commit';

export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export interface NewTreeEntry {
  mode: string;
  name: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export interface NewCommit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

export function hashObject(type: ObjectType, content: Uint8Array): string {
  return crypto.createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** Git sorts tree entries by name bytes, a subtree comparing as if its name ended in '/'. */
function treeOrder(a: NewTreeEntry, b: NewTreeEntry): number {
  const ka = Buffer.from(a.type === 'tree' ? `${a.name}/` : a.name);
  const kb = Buffer.from(b.type === 'tree' ? `${b.name}/` : b.name);
  return Buffer.compare(ka, kb);
}

export function encodeTree(entries: NewTreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of [...entries].sort(treeOrder)) {
    const mode = e.type === 'tree' ? '40000' : e.mode.replace(/^0+/, '');
    parts.push(Buffer.from(`${mode} ${e.name}\0`), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/** Git drops these from identities (ident.c); a name cannot carry them. */
export function cleanIdent(s: string): string {
  return s.replace(/[<>\n\r\0]/g, '').trim();
}

function encodeSignature(s: Signature): string {
  return `${cleanIdent(s.name)} <${cleanIdent(s.email)}> ${s.timestamp} +0000`;
}

export function encodeCommit(c: NewCommit): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${encodeSignature(c.author)}`, `committer ${encodeSignature(c.committer)}`);
  return Buffer.from(`${lines.join('\n')}\n\n${c.message}`);
}

/** True when git would refuse the identity: empty once cleaned. */
export function blankIdent(s: string): boolean {
  return cleanIdent(s) === '';
}

/** Objects of one write, hashed as they are added and written together by `flush`. */
export class ObjectBatch {
  private readonly pending = new Map<string, { type: ObjectType; content: Uint8Array }>();

  constructor(readonly gitdir: string) {}

  add(type: ObjectType, content: Uint8Array): string {
    const oid = hashObject(type, content);
    if (!this.pending.has(oid)) this.pending.set(oid, { type, content });
    return oid;
  }

  blob(content: Uint8Array): string {
    return this.add('blob', content);
  }

  tree(entries: NewTreeEntry[]): string {
    return this.add('tree', encodeTree(entries));
  }

  commit(c: NewCommit): string {
    return this.add('commit', encodeCommit(c));
  }

  /** Writes every object (loose, deflated); nothing references them until a ref moves. */
  async flush(): Promise<void> {
    for (const [oid, { type, content }] of this.pending) {
      const written = await git.writeObject({ fs, gitdir: this.gitdir, type, object: content, format: 'content' });
      if (written !== oid) throw new Error(`object id mismatch: ${written} != ${oid}`);
    }
    this.pending.clear();
  }
}
