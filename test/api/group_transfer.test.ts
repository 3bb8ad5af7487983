// POST /groups/:id/projects/:project_id (GitLab 10.8 lib/api/groups.rb, Projects::
// TransferService): admins move a project into a group, its repository with it (cloned
// from the new path with the real git afterwards); 10.8's refusals and who may ask.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, created, repoDir } from '../helpers/projects.js';
import { expectFsckClean, head } from '../helpers/bare_git.js';

describe('Groups API: transfer a project into a group', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();
  let counter = 0;

  async function group(visibility = 'public') {
    const n = ++counter;
    return created(await s.post('/groups', { token: admin.token, json: { name: `team${n}`, path: `team${n}`, visibility } }));
  }
  async function project(visibility = 'public', name = `tp${++counter}`) {
    const p = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name, visibility });
    await commitFiles(s, p.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hi\n' }], { token: owner.token });
    return p;
  }
  const transfer = (groupId: number | string, projectId: number | string, token: string | null = admin.token) => s.post(`/groups/${groupId}/projects/${projectId}`, { token });

  it('moves the project and its repository into the group and answers the GroupDetail (201)', async () => {
    const g = await group();
    const p = await project();
    const sha = head(repoDir(s, p.path_with_namespace), 'master');
    const r = await transfer(g.id, encodeURIComponent(p.path_with_namespace));
    expect(r.status, r.text).to.equal(201);
    // The GroupDetail, as GET /groups/:id answers it afterwards.
    expect(r.body).to.deep.equal((await s.get(`/groups/${g.id}`, { token: admin.token })).body);
    expect(r.body.projects.map((x: { id: number }) => x.id)).to.deep.equal([p.id]);
    expect(r.body.projects[0].path_with_namespace).to.equal(`${g.path}/${p.path}`);

    const now = (await s.get(`/projects/${p.id}`, { token: owner.token })).body;
    expect(now.namespace).to.include({ id: g.id, kind: 'group', full_path: g.full_path });
    expect(now.path_with_namespace).to.equal(`${g.path}/${p.path}`);
    expect(fs.existsSync(repoDir(s, p.path_with_namespace))).to.equal(false);
    const dir = repoDir(s, now.path_with_namespace);
    expect(head(dir, 'master')).to.equal(sha);
    expectFsckClean(dir);
    // A client clones it from its new place; the old path is not found.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-tr-'));
    try {
      const url = `${s.url.replace('http://', `http://owner:${owner.token}@`)}/${now.path_with_namespace}.git`;
      // Asynchronously: the server answers from this process.
      await promisify(execFile)('git', ['clone', '--quiet', url, path.join(work, 'c')], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, timeout: 30000 });
      expect(fs.readFileSync(path.join(work, 'c', 'README.md'), 'utf8')).to.equal('hi\n');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    expect((await s.get(`/projects/${encodeURIComponent(p.path_with_namespace)}`, { token: owner.token })).status).to.equal(404);
    // The project's own members keep their access (the owner is one, as master, since creation).
    expect((await s.get(`/projects/${p.id}/repository/branches`, { token: dev.token })).status).to.equal(200);
  });

  it("lowers the visibility to the group's and tells the system hooks (project_transfer)", async () => {
    const g = await group('private');
    const p = await project('public');
    const from = p.path_with_namespace;
    created(await transfer(g.id, p.id));
    expect((await s.get(`/projects/${p.id}`, { token: owner.token })).body.visibility).to.equal('private');
    const jobs = await s.db('jobs').where({ kind: 'web_hook' }).select('payload');
    // No system hook is set up: nothing is queued, as for the other system events.
    expect(jobs.filter((j: { payload: string }) => String(j.payload).includes('project_transfer'))).to.have.length(0);
    const hook = created(await s.post('/hooks', { token: admin.token, json: { url: 'http://127.0.0.1:9/x' } }));
    try {
      const q = await project('public');
      created(await transfer(g.id, q.id));
      const queued = (await s.db('jobs').where({ kind: 'web_hook' }).select('payload')).map((j: { payload: unknown }) =>
        typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload,
      );
      const data = queued.map((x: { body?: { data?: unknown }; data?: unknown }) => JSON.stringify(x)).find((x: string) => x.includes('project_transfer'));
      expect(data, JSON.stringify(queued)).to.be.a('string');
      expect(data).to.include(`"old_path_with_namespace":"${q.path_with_namespace}"`);
      expect(data).to.include(`"path_with_namespace":"${g.path}/${q.path}"`);
    } finally {
      await s.delete(`/hooks/${hook.id}`, { token: admin.token });
    }
    expect(from).to.not.equal(`${g.path}/${p.path}`);
  });

  describe("10.8's refusals (400, nothing moved)", () => {
    it('a project already in the group, or a path taken there', async () => {
      const g = await group();
      const p = await project();
      created(await transfer(g.id, p.id));
      let r = await transfer(g.id, p.id);
      expect([r.status, r.body]).to.deep.equal([400, { message: 'Failed to transfer project {:new_namespace=>["Transfer failed, please contact an admin."]}' }]);

      const twin = await project('public', p.path);
      const before = head(repoDir(s, twin.path_with_namespace), 'master');
      r = await transfer(g.id, twin.id);
      expect([r.status, r.body]).to.deep.equal([400, { message: 'Failed to transfer project {:new_namespace=>["Project with same path in target namespace already exists"]}' }]);
      expect((await s.get(`/projects/${twin.id}`, { token: owner.token })).body.path_with_namespace).to.equal(twin.path_with_namespace);
      expect(head(repoDir(s, twin.path_with_namespace), 'master')).to.equal(before);
    });

    it('404 for an unknown group or project', async () => {
      const g = await group();
      const p = await project();
      let r = await transfer(999999, p.id);
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Group Not Found' }]);
      r = await transfer(g.id, 999999);
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
      r = await transfer(g.id, 'nogroup%2Fnoproject');
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    });
  });

  describe('the permission matrix: admins only (authenticated_as_admin!)', () => {
    for (const visibility of ['private', 'internal', 'public']) {
      it(`a ${visibility} project`, async () => {
        const g = await group();
        const p = await project(visibility);
        let r = await transfer(g.id, p.id, null);
        expect([r.status, r.body], 'anonymous').to.deep.equal([401, { message: '401 Unauthorized' }]);
        for (const [name, who] of Object.entries({ stranger, guest, reporter, dev, master, owner })) {
          r = await transfer(g.id, p.id, who.token);
          expect([r.status, r.body], name).to.deep.equal([403, { message: '403 Forbidden' }]);
        }
        expect((await s.get(`/projects/${p.id}`, { token: owner.token })).body.namespace.id).to.not.equal(g.id);
        expect((await transfer(g.id, p.id)).status).to.equal(201);
      });
    }
  });
});
