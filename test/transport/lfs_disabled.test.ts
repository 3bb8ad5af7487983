// With Git LFS off for the server (WHARF_LFS_ENABLED=false), Wharf answers as GitLab 10.8 does
// with `lfs: enabled: false`: projects and groups show `lfs_enabled: false` (the stored setting
// is kept), and a repository's LFS paths (batch API, legacy objects API, locks, object storage)
// answer 501 with GitLab's message.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { createProject } from '../helpers/projects.js';

describe('Git LFS while it is off for the server', function () {
  let s: TestServer;
  let project: any;
  before(async () => {
    s = await bootServer({ WHARF_LFS_ENABLED: 'false' });
    project = await createProject(s, ROOT_TOKEN, { name: 'no-lfs' });
  });
  after(() => s.close());

  it('shows lfs_enabled false for projects and groups, keeping the stored setting', async () => {
    const put = await s.put(`/projects/${project.id}`, { json: { lfs_enabled: true } });
    expect(put.status).to.equal(200);
    expect(put.body.lfs_enabled).to.equal(false);
    expect((await s.db('projects').where({ id: project.id }).first()).lfs_enabled).to.be.oneOf([1, true]);
    const group = await s.post('/groups', { json: { name: 'No LFS', path: 'no-lfs-group', lfs_enabled: true } });
    expect(group.status).to.equal(201);
    expect(group.body.lfs_enabled).to.equal(false);
  });

  it('answers 501 on every LFS path of a repository', async () => {
    const base = `${s.url}/${project.path_with_namespace}.git`;
    const oid = 'a'.repeat(64);
    const calls: [string, string][] = [
      ['POST', '/info/lfs/objects/batch'],
      ['POST', '/info/lfs/objects'],
      ['GET', `/info/lfs/objects/${oid}`],
      ['GET', '/info/lfs/locks'],
      ['POST', '/info/lfs/locks/verify'],
      ['GET', `/gitlab-lfs/objects/${oid}`],
      ['PUT', `/gitlab-lfs/objects/${oid}/12`],
    ];
    for (const [method, path] of calls) {
      const r = await fetch(base + path, {
        method,
        headers: { Accept: 'application/vnd.git-lfs+json', 'Content-Type': 'application/vnd.git-lfs+json' },
        body: method === 'GET' ? undefined : '{}',
      });
      expect(r.status, `${method} ${path}`).to.equal(501);
      expect(await r.json()).to.deep.equal({ message: 'Git LFS is not enabled on this GitLab server, contact your admin.', documentation_url: `${s.url}/help` });
    }
    // git itself is untouched.
    expect(
      (await fetch(`${base}/info/refs?service=git-upload-pack`, { headers: { Authorization: `Basic ${Buffer.from(`root:${ROOT_TOKEN}`).toString('base64')}` } })).status,
    ).to.equal(200);
  });
});
