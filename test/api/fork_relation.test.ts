// POST /projects/:id/fork/:forked_from_id and DELETE /projects/:id/fork (GitLab 10.8
// lib/api/projects.rb, ForkService linking an existing project, UnlinkForkService): the
// relation, the parent's forks_count kept by the triggers, 10.8's answers and who may ask.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, createBranch, created } from '../helpers/projects.js';

describe('Projects API: the forked-from relation', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();
  let counter = 0;

  const project = (visibility = 'public') => projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `fr${++counter}`, visibility });
  const link = (id: number | string, from: number | string, token: string | null = admin.token) => s.post(`/projects/${id}/fork/${from}`, { token });
  const unlink = (id: number, token: string | null = admin.token) => s.delete(`/projects/${id}/fork`, { token });
  const forksCount = async (id: number) => (await s.get(`/projects/${id}`, { token: admin.token })).body.forks_count;

  it('links a project to its parent (201, the Project entity) and counts it among the forks', async () => {
    const parent = await project();
    const child = await project();
    const r = await link(child.id, parent.id);
    expect(r.status, r.text).to.equal(201);
    // Entities::Project as GET /projects/:id shows it, without what 10.8 shows only when asked
    // with user_can_admin_project, which this route does not pass.
    const { permissions: _permissions, import_error: _error, runners_token: _token, ...shown } = (await s.get(`/projects/${child.id}`, { token: admin.token })).body;
    expect(r.body).to.deep.equal(shown);
    expect(r.body.id).to.equal(child.id);
    expect(r.body.forked_from_project).to.include({ id: parent.id, path_with_namespace: parent.path_with_namespace });
    expect(await forksCount(parent.id)).to.equal(1);
    const forks = await s.get(`/projects/${parent.id}/forks`, { token: owner.token });
    expect(forks.body.map((p: { id: number }) => p.id)).to.deep.equal([child.id]);
  });

  it('409 "Project already forked" for a fork, which keeps its parent', async () => {
    const parent = await project();
    const other = await project();
    const child = await project();
    created(await link(child.id, parent.id));
    const r = await link(child.id, other.id);
    expect([r.status, r.body]).to.deep.equal([409, { message: 'Project already forked' }]);
    expect((await s.get(`/projects/${child.id}`, { token: admin.token })).body.forked_from_project.id).to.equal(parent.id);
    expect([await forksCount(parent.id), await forksCount(other.id)]).to.deep.equal([1, 0]);
  });

  it('404 for an unknown project on either side', async () => {
    const p = await project();
    let r = await link(p.id, 999999);
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    r = await link(999999, p.id);
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
  });

  it('unlinks (204), then answers 304; the open merge requests into the parent are closed', async () => {
    const parent = await project();
    await commitFiles(s, parent.id, 'master', [{ action: 'create', file_path: 'a.txt', content: 'a\n' }], { token: owner.token });
    const fork = created(await s.post(`/projects/${parent.id}/fork`, { token: admin.token }));
    expect(await forksCount(parent.id)).to.equal(1);
    await createBranch(s, fork.id, 'topic', 'master', admin.token);
    await commitFiles(s, fork.id, 'topic', [{ action: 'create', file_path: 'b.txt', content: 'b\n' }], { token: admin.token });
    const mr = created(
      await s.post(`/projects/${fork.id}/merge_requests`, {
        token: admin.token,
        json: { source_branch: 'topic', target_branch: 'master', target_project_id: parent.id, title: 'Up' },
      }),
    );
    const own = created(await s.post(`/projects/${fork.id}/merge_requests`, { token: admin.token, json: { source_branch: 'topic', target_branch: 'master', title: 'Own' } }));

    let r = await unlink(fork.id);
    expect(r.status, r.text).to.equal(204);
    expect(r.text).to.equal('');
    const after = (await s.get(`/projects/${fork.id}`, { token: admin.token })).body;
    expect(after).to.not.have.property('forked_from_project');
    expect(await forksCount(parent.id)).to.equal(0);
    expect((await s.get(`/projects/${parent.id}/merge_requests/${mr.iid}`, { token: admin.token })).body.state).to.equal('closed');
    expect((await s.get(`/projects/${fork.id}/merge_requests/${own.iid}`, { token: admin.token })).body.state).to.equal('opened');

    r = await unlink(fork.id);
    expect([r.status, r.text]).to.deep.equal([304, '']);
  });

  it('412 when the project changed since If-Unmodified-Since', async () => {
    const parent = await project();
    const child = await project();
    created(await link(child.id, parent.id));
    const r = await s.delete(`/projects/${child.id}/fork`, { token: admin.token, headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    expect(r.status).to.equal(412);
    expect(await forksCount(parent.id)).to.equal(1);
  });

  describe('the permission matrix', () => {
    const HIDDEN = [404, { message: '404 Project Not Found' }];
    const FORBIDDEN = [403, { message: '403 Forbidden' }];
    const ANONYMOUS = [401, { message: '401 Unauthorized' }];
    for (const visibility of ['private', 'internal', 'public']) {
      it(`a ${visibility} project: linking is for admins; unlinking for its owner and admins`, async () => {
        const parent = await project(visibility);
        const child = await project(visibility);
        const who = { stranger, guest, reporter, dev, master, owner };
        let r = await link(child.id, parent.id, null);
        expect([r.status, r.body], 'anonymous').to.deep.equal(ANONYMOUS);
        for (const [name, account] of Object.entries(who)) {
          r = await link(child.id, parent.id, account.token);
          expect([r.status, r.body], name).to.deep.equal(FORBIDDEN);
        }
        created(await link(child.id, parent.id));

        const hidden = visibility === 'private';
        r = await unlink(child.id, null);
        expect([r.status, r.body], 'anonymous').to.deep.equal(ANONYMOUS);
        const refused = { stranger: hidden ? HIDDEN : FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, dev: FORBIDDEN, master: FORBIDDEN };
        for (const [name, want] of Object.entries(refused)) {
          r = await unlink(child.id, who[name as keyof typeof refused].token);
          expect([r.status, r.body], name).to.deep.equal(want);
        }
        expect(await forksCount(parent.id)).to.equal(1);
        expect((await unlink(child.id, owner.token)).status).to.equal(204);
        expect(await forksCount(parent.id)).to.equal(0);
      });
    }
  });
});
