// Hand-built tar.gz archives for the import tests: any entry GitLab's format or an attacker
// could put in one (files, folders, symbolic and hard links, `../` and absolute names),
// written header by header with the tar package's Header, gzipped with zlib.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Header } from 'tar';
import { expect } from 'chai';
import type { TestServer } from './server.js';

export interface Entry {
  name: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  body?: string | Buffer;
  linkpath?: string;
}

export function tarGz(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = e.body === undefined ? Buffer.alloc(0) : Buffer.from(e.body);
    const type = e.type ?? 'File';
    const header = Buffer.alloc(512);
    new Header({ path: e.name, type, size: type === 'File' ? body.length : 0, mode: type === 'Directory' ? 0o755 : 0o644, mtime: new Date(0), linkpath: e.linkpath }).encode(
      header,
      0,
    );
    blocks.push(header);
    if (type === 'File' && body.length) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

/** The files and folders of an unpacked archive folder, as entries (to rebuild it with changes). */
export function entriesOf(dir: string, prefix = ''): Entry[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e): Entry[] =>
      e.isDirectory()
        ? [{ name: `${prefix}${e.name}/`, type: 'Directory' }, ...entriesOf(path.join(dir, e.name), `${prefix}${e.name}/`)]
        : [{ name: `${prefix}${e.name}`, body: fs.readFileSync(path.join(dir, e.name)) }],
    );
}

/** POST /projects/import as python-gitlab sends it: multipart with `file`, `path`, …. */
export async function importArchive(s: TestServer, token: string, archive: Buffer, fields: Record<string, string>): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(archive)]), 'export.tar.gz');
  const res = await fetch(new URL('/api/v4/projects/import', s.url), { method: 'POST', headers: { 'PRIVATE-TOKEN': token }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Imports and runs the import job; the final import status. */
export async function importAndWait(s: TestServer, token: string, archive: Buffer, fields: Record<string, string>): Promise<any> {
  const r = await importArchive(s, token, archive, fields);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  expect(r.body.import_status).to.equal('scheduled');
  await s.drainJobs();
  const st = await s.get(`/projects/${r.body.id}/import`, { token });
  expect(st.status).to.equal(200);
  return st.body;
}
