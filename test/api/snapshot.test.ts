// GET /projects/:id/snapshot (GitLab 10.8 lib/api/project_snapshots.rb, Gitaly's
// GetSnapshot behind Workhorse): an uncompressed tar of the bare repository, for admins only;
// the real `tar` unpacks it and the real `git` reads the repository it holds.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, createBranch, repoDir } from '../helpers/projects.js';
import { git } from '../helpers/bare_git.js';

describe('Project snapshots API', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();
  let counter = 0;

  const project = (visibility = 'private') => projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `sn${++counter}`, visibility });
  const download = (id: number | string, token: string | null, query = '') =>
    fetch(`${s.url}/api/v4/projects/${id}/snapshot${query}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });

  function unpack(bytes: Buffer): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-snap-'));
    execFileSync('tar', ['-x', '-C', dir], { input: bytes });
    return dir;
  }

  it('streams a tar of the repository that git reads as the same repository, with Workhorse headers', async () => {
    const p = await project();
    await commitFiles(s, p.id, 'master', [{ action: 'create', file_path: 'a.txt', content: 'a\n' }], { token: owner.token });
    await createBranch(s, p.id, 'topic', 'master', owner.token);
    await commitFiles(s, p.id, 'topic', [{ action: 'create', file_path: 'b.txt', content: 'b\n' }], { token: owner.token });
    const res = await download(p.id, admin.token);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/x-tar');
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="snapshot.tar"');
    const bytes = Buffer.from(await res.arrayBuffer());
    const names = execFileSync('tar', ['-t'], { input: bytes }).toString().split('\n');
    expect(names).to.include('HEAD');
    expect(names.some((n) => n.startsWith('objects/'))).to.equal(true);
    expect(names.some((n) => n.startsWith('hooks') || n === 'config')).to.equal(false);
    const dir = unpack(bytes);
    try {
      const original = repoDir(s, p.path_with_namespace);
      const refs = (d: string) => git(d, ['for-each-ref', '--format=%(objectname) %(refname)']);
      expect(refs(dir)).to.equal(refs(original));
      expect(refs(dir)).to.include('refs/heads/topic');
      expect(git(dir, ['show', 'topic:b.txt'])).to.equal('b\n');
      execFileSync('git', ['--git-dir', dir, 'fsck', '--full', '--no-dangling']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('snapshots an empty repository too', async () => {
    const p = await project();
    const res = await download(p.id, admin.token);
    expect(res.status).to.equal(200);
    const dir = unpack(Buffer.from(await res.arrayBuffer()));
    try {
      expect(git(dir, ['for-each-ref'])).to.equal('');
      expect(fs.readFileSync(path.join(dir, 'HEAD'), 'utf8')).to.match(/^ref: refs\/heads\//);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('404 for the wiki (Wharf has no wikis yet) and for an unknown project; 400 for a wiki that is no boolean', async () => {
    const p = await project();
    let res = await download(p.id, admin.token, '?wiki=true');
    expect([res.status, await res.json()]).to.deep.equal([404, { message: '404 Wiki Not Found' }]);
    res = await download(p.id, admin.token, '?wiki=0');
    expect(res.status).to.equal(200);
    await res.arrayBuffer();
    res = await download(p.id, admin.token, '?wiki=maybe');
    expect([res.status, await res.json()]).to.deep.equal([400, { error: 'wiki is invalid' }]);
    res = await download(999999, admin.token);
    expect([res.status, await res.json()]).to.deep.equal([404, { message: '404 Project Not Found' }]);
  });

  describe('the permission matrix: admins only (authenticated_with_full_private_access!)', () => {
    for (const visibility of ['private', 'internal', 'public']) {
      it(`a ${visibility} project`, async () => {
        const p = await project(visibility);
        let res = await download(p.id, null);
        expect([res.status, await res.json()], 'anonymous').to.deep.equal([401, { message: '401 Unauthorized' }]);
        for (const [name, who] of Object.entries({ stranger, guest, reporter, dev, master, owner })) {
          res = await download(p.id, who.token);
          expect([res.status, await res.json()], name).to.deep.equal([403, { message: '403 Forbidden' }]);
        }
        res = await download(p.id, admin.token);
        expect(res.status).to.equal(200);
        await res.arrayBuffer();
      });
    }
  });
});
