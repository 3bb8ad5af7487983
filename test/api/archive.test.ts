// Archives over HTTP: every format unpacked with the system tools equals the commit's tree
// (paths, contents, modes, symlinks), names and headers as Workhorse sent them, same bytes twice.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { git, WorkTree } from '../helpers/compare_git.js';
import { insertMember } from '../../src/services/members/members.js';

/** Every file below `dir` → "mode content" (symlinks → "link target"). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) out[r] = `link ${fs.readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p, r);
      else out[r] = `${st.mode & 0o100 ? 'x' : '-'} ${fs.readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir, '');
  return out;
}

describe('GET /projects/:id/repository/archive', () => {
  let s: TestServer;
  let pid: number;
  let bare: string;
  let head: string;
  let tmp: string;

  before(async function () {
    this.timeout(60000);
    s = await bootServer();
    const created = await s.post('/projects', { json: { name: 'arch', visibility: 'public' } });
    pid = created.body.id;
    bare = path.join(s.dir, 'repos', `${created.body.path_with_namespace}.git`);
    const w = new WorkTree(bare);
    w.write('README.md', 'hello\n').write('bin/run.sh', '#!/bin/sh\necho run\n', 0o755).write('deep/a/b/c.txt', 'deep\n').write('empty', '');
    w.symlink('link-to-readme', 'README.md');
    w.commit('first');
    w.checkout('feature/x', true).write('feature.txt', 'f\n');
    head = w.commit('feature');
    w.checkout('master');
    w.push();
    w.close();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-archive-'));
  });

  after(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
    await s.close();
  });

  async function download(url: string, query: Record<string, string> = {}) {
    const u = new URL(`/api/v4${url}`, s.url);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    const res = await fetch(u, { headers: { 'PRIVATE-TOKEN': 'root-test-token-0123456789' } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  function unpack(bytes: Buffer, ext: string): string {
    const dir = fs.mkdtempSync(path.join(tmp, 'x-'));
    const file = path.join(dir, `a.${ext}`);
    fs.writeFileSync(file, bytes);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    if (ext === 'zip') execFileSync('unzip', ['-q', file, '-d', out]);
    else execFileSync('tar', ['-xf', file, '-C', out]);
    return out;
  }

  function expected(ref: string): Record<string, string> {
    const dir = fs.mkdtempSync(path.join(tmp, 'git-'));
    execFileSync('sh', ['-c', `git -C "${bare}" archive --format=tar ${ref} | tar -xf - -C "${dir}"`]);
    return snapshot(dir);
  }

  for (const [suffix, ext, type] of [
    ['', 'tar.gz', 'application/octet-stream'],
    ['.tar.gz', 'tar.gz', 'application/octet-stream'],
    ['.tgz', 'tar.gz', 'application/octet-stream'],
    ['.tar', 'tar', 'application/octet-stream'],
    ['.tar.bz2', 'tar.bz2', 'application/octet-stream'],
    ['.tbz2', 'tar.bz2', 'application/octet-stream'],
    ['.zip', 'zip', 'application/zip'],
  ]) {
    it(`archive${suffix || ' (default)'} unpacks to the commit's tree, under the prefix folder`, async () => {
      const { res, bytes } = await download(`/projects/${pid}/repository/archive${suffix}`, { sha: 'feature/x' });
      expect(res.status).to.equal(200);
      const prefix = `arch-feature-x-${head}`;
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="${prefix}.${ext}"`);
      expect(res.headers.get('content-type')).to.equal(type);
      expect(res.headers.get('cache-control')).to.equal('private');
      const out = unpack(bytes, ext);
      expect(fs.readdirSync(out)).to.deep.equal([prefix]);
      expect(snapshot(path.join(out, prefix))).to.deep.equal(expected(head));
      const again = await download(`/projects/${pid}/repository/archive${suffix}`, { sha: 'feature/x' });
      expect(again.bytes.equals(bytes), 'same bytes when asked twice').to.equal(true);
    });
  }

  it('lists the same entries as git archive (tar), mtimes = the commit time', async () => {
    const { bytes } = await download(`/projects/${pid}/repository/archive.tar`, { sha: head });
    fs.writeFileSync(path.join(tmp, 'w.tar'), bytes);
    const prefix = `arch-${head}-${head}`;
    const ours = execFileSync('tar', ['-tvf', path.join(tmp, 'w.tar'), '--full-time', '--numeric-owner']).toString();
    const theirs = execFileSync('sh', ['-c', `git -C "${bare}" archive --format=tar --prefix=${prefix}/ ${head} | tar -tvf - --full-time --numeric-owner`]).toString();
    const names = (t: string) =>
      t
        .trim()
        .split('\n')
        .map((l) =>
          l
            .replace(/ -> .*$/, '')
            .split(/\s+/)
            .pop()!,
        )
        .filter((n) => n !== 'pax_global_header'); // git's tar carries the commit id in a pax header
    expect(names(ours)).to.deep.equal(names(theirs));
    expect(ours).to.match(/^lrwxrwxrwx .*\/link-to-readme -> README\.md$/m);
    const time = git(bare, ['show', '-s', '--format=%ct', head]).trim();
    const stamp = new Date(Number(time) * 1000).toISOString().slice(0, 10);
    for (const line of ours.trim().split('\n')) expect(line).to.include(stamp);
  });

  it('uses the default branch when sha is omitted; ?format= works too', async () => {
    const { res } = await download(`/projects/${pid}/repository/archive`, { format: 'zip' });
    expect(res.status).to.equal(200);
    const master = git(bare, ['rev-parse', 'master']).trim();
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="arch-master-${master}.zip"`);
  });

  it('404s an unknown ref with "404 File Not Found"', async () => {
    const r = await s.get(`/projects/${pid}/repository/archive.zip`, { query: { sha: 'nope' } });
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 File Not Found' }]);
  });

  it('answers an unknown format suffix as an unknown route', async () => {
    const r = await s.get(`/projects/${pid}/repository/archive.rar`);
    expect([r.status, r.body]).to.deep.equal([404, { error: '404 Not Found' }]);
  });

  it('checks access: anonymous on private 404, guest 403; an unknown suffix is no route for anyone', async () => {
    const priv = await s.post('/projects', { json: { name: 'hidden', visibility: 'private' } });
    const anon = await s.get(`/projects/${priv.body.id}/repository/archive`, { token: null });
    expect([anon.status, anon.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    // An unknown suffix is no route at all, whoever asks (GitLab's route requirements).
    const rar = await s.get(`/projects/${priv.body.id}/repository/archive.rar`, { token: null });
    expect([rar.status, rar.body]).to.deep.equal([404, { error: '404 Not Found' }]);
    const g = await s.createUser('archguest');
    await insertMember(s.db, { sourceType: 'project', sourceId: priv.body.id, userId: g.user.id, accessLevel: 10 });
    const asGuest = await s.get(`/projects/${priv.body.id}/repository/archive`, { token: g.token });
    expect([asGuest.status, asGuest.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
    const zipAsGuest = await s.get(`/projects/${priv.body.id}/repository/archive.ZIP`, { token: g.token });
    expect([zipAsGuest.status, zipAsGuest.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
    const rarAsGuest = await s.get(`/projects/${priv.body.id}/repository/archive.rar`, { token: g.token });
    expect([rarAsGuest.status, rarAsGuest.body]).to.deep.equal([404, { error: '404 Not Found' }]);
  });
});
