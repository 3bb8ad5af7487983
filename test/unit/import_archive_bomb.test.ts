// A decompression bomb by size: a small tar.gz whose files unpack past the bound is refused
// with a clear message as soon as an entry's header takes the total over it, before that entry
// is written, so what lands on disk stays under the bound. (The bound is a parameter: the
// server's own is 4 GiB, the very same check.) A bomb of many files is refused with no write
// still under way: the folder removed right after stays empty.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { tarGz } from '../helpers/archives.js';
import { readTree, unpackArchive } from '../../src/services/import_export/import_archive.js';

function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  }
  return total;
}

describe('import archive: bombs by size (the archive, project.json)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bomb-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops at the byte bound before writing the entry that passes it', async () => {
    const zeros = Buffer.alloc(3 * 1024 * 1024);
    const archive = tarGz([
      { name: 'VERSION', body: '0.2.3' },
      { name: 'a.bin', body: zeros },
      { name: 'b.bin', body: zeros },
    ]);
    expect(archive.length).to.be.below(64 * 1024); // 6 MB of content in a few KB
    const file = path.join(dir, 'bomb.tar.gz');
    fs.writeFileSync(file, archive);
    const into = path.join(dir, 'out');
    let message = '';
    try {
      await unpackArchive(file, into, { entries: 100, bytes: 4 * 1024 * 1024 });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.equal('The archive unpacks to more than 4194304 bytes');
    expect(fs.existsSync(path.join(into, 'b.bin'))).to.equal(false);
    expect(sizeOf(into)).to.be.at.most(4 * 1024 * 1024);
  });

  it('settles a refused archive of many files only once every write ended: the folder removed at once stays gone', async () => {
    const many = [{ name: 'VERSION', body: '0.2.3' }];
    for (let i = 0; i < 3_000; i++) many.push({ name: `d${i % 20}/f${i}`, body: 'x'.repeat(2000) });
    const file = path.join(dir, 'many.tar.gz');
    fs.writeFileSync(file, tarGz(many));
    const into = path.join(dir, 'out');
    let message = '';
    try {
      await unpackArchive(file, into, { entries: 2_500, bytes: 1024 ** 3 });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.equal('The archive holds more than 2500 files');
    await fs.promises.rm(into, { recursive: true }); // no ENOTEMPTY from a file written meanwhile
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.existsSync(into)).to.equal(false);
  });

  it("refuses a project.json over its bound before reading it (the server's bound is 200 MB)", async () => {
    fs.writeFileSync(path.join(dir, 'project.json'), `{"description":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    let message = '';
    try {
      await readTree(dir, 1024 * 1024);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.equal('project.json is larger than 1048576 bytes');
    expect((await readTree(dir, 4 * 1024 * 1024)).description).to.have.length(2 * 1024 * 1024);
  });
});
