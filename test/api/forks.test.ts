// Forks (GitLab 10.8 POST /projects/:id/fork, GET /projects/:id/forks, Projects::ForkService):
// where the fork goes, what it copies, GitLab's error answers, and a repository that shares
// the parent's history and survives the parent's deletion.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, createBranch, repoDir } from '../helpers/projects.js';
import { git } from '../helpers/bare_git.js';
import { insertMember } from '../../src/services/members/members.js';

describe('Forks', () => {
  const { s, owner, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(visibility = 'private') {
    const name = `fk${++counter}`;
    const r = await projectWithRoles(s, owner, { reporter, guest }, { name, visibility, description: 'the parent' });
    await commitFiles(s, r.id, 'master', [{ action: 'create', file_path: 'README', content: 'x\n' }], { message: 'init', token: owner.token });
    await createBranch(s, r.id, 'topic', 'master', owner.token);
    return { id: r.id as number, name, dir: repoDir(s, r.path_with_namespace), fullPath: r.path_with_namespace as string };
  }

  it('forks into the user namespace: same name and path, forked_from_project, a clone of the repository', async () => {
    const p = await project('private');
    const r = await s.post(`/projects/${p.id}/fork`, { token: reporter.token });
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ name: p.name, path: p.name, path_with_namespace: `reporter/${p.name}`, description: 'the parent', visibility: 'private' });
    expect(r.body.owner.id).to.equal(reporter.user.id);
    expect(r.body.namespace.id).to.be.a('number');
    expect(r.body.forked_from_project.id).to.equal(p.id);
    expect(r.body.default_branch).to.equal('master');
    const forkDir = repoDir(s, r.body.path_with_namespace);
    expect(git(forkDir, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'])).to.equal(
      git(p.dir, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads']),
    );
    // Readable through the API, and counted on the parent.
    const tree = await s.get(`/projects/${r.body.id}/repository/tree`, { token: reporter.token });
    expect(tree.body.map((e: { name: string }) => e.name)).to.deep.equal(['README']);
    const parent = await s.get(`/projects/${p.id}`, { token: owner.token });
    expect(parent.body.forks_count).to.equal(1);
    const forks = await s.get(`/projects/${p.id}/forks`, { token: reporter.token });
    expect(forks.body.map((f: { id: number }) => f.id)).to.deep.equal([r.body.id]);
    expect((await s.get(`/projects/${p.id}/forks`, { token: owner.token })).body).to.deep.equal([]); // a private fork of another user
    // The fork keeps its history when the parent goes.
    expect((await s.delete(`/projects/${p.id}`, { token: owner.token })).status).to.equal(202);
    git(forkDir, ['fsck', '--full', '--no-dangling']);
    const after = await s.get(`/projects/${r.body.id}/repository/commits`, { token: reporter.token });
    expect(after.status).to.equal(200);
    expect(after.body).to.have.length(1);
  });

  it('is no more visible than the parent or the namespace', async () => {
    const p = await project('internal');
    const r = await s.post(`/projects/${p.id}/fork`, { token: stranger.token });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.visibility).to.equal('internal');
    const g = await s.post('/groups', { token: stranger.token, json: { name: 'privgroup', path: 'privgroup', visibility: 'private' } });
    expect(g.status, g.text).to.equal(201);
    const q = await project('public');
    const inGroup = await s.post(`/projects/${q.id}/fork`, { token: stranger.token, json: { namespace: 'privgroup' } });
    expect(inGroup.status, inGroup.text).to.equal(201);
    expect(inGroup.body).to.include({ visibility: 'private', path_with_namespace: `privgroup/${q.name}` });
    const byId = await s.post(`/projects/${q.id}/fork`, { token: admin.token, json: { namespace: reporter.user.username } });
    expect(byId.status, byId.text).to.equal(201);
    expect(byId.body.owner.id).to.equal(reporter.user.id);
  });

  it('forks into a group only for those who may create projects there (its masters), else 404 Target Namespace', async () => {
    const p = await project('public');
    const g = await s.post('/groups', { token: owner.token, json: { name: 'forkers', path: 'forkers' } });
    expect(g.status, g.text).to.equal(201);
    await insertMember(s.db, { sourceType: 'group', sourceId: g.body.id, userId: reporter.user.id, accessLevel: 30 });
    await insertMember(s.db, { sourceType: 'group', sourceId: g.body.id, userId: guest.user.id, accessLevel: 40 });
    const developer = await s.post(`/projects/${p.id}/fork`, { token: reporter.token, json: { namespace: g.body.id } });
    expect([developer.status, developer.body]).to.deep.equal([404, { message: '404 Target Namespace Not Found' }]);
    const master = await s.post(`/projects/${p.id}/fork`, { token: guest.token, json: { namespace: 'forkers' } });
    expect(master.status, master.text).to.equal(201);
    expect(master.body.path_with_namespace).to.equal(`forkers/${p.name}`);
  });

  it('forks a project with an empty repository', async () => {
    const r = await s.post('/projects', { token: owner.token, json: { name: 'empty-one', visibility: 'public' } });
    const f = await s.post(`/projects/${r.body.id}/fork`, { token: stranger.token });
    expect(f.status, f.text).to.equal(201);
    expect(f.body.default_branch).to.equal(null);
    await commitFiles(s, f.body.id, 'master', [{ action: 'create', file_path: 'a', content: 'a' }], { message: 'first', token: stranger.token });
  });

  it('answers GitLab errors: 401, 404 project, 404 target namespace, 409 taken, 409 forbidden', async () => {
    const p = await project('private');
    let r = await s.post(`/projects/${p.id}/fork`, { token: null });
    expect([r.status, r.body]).to.deep.equal([401, { message: '401 Unauthorized' }]);
    r = await s.post(`/projects/${p.id}/fork`, { token: stranger.token });
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    r = await s.post('/projects/424242/fork', { token: reporter.token });
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    r = await s.post(`/projects/${p.id}/fork`, { token: reporter.token, json: { namespace: 424242 } });
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Target Namespace Not Found' }]);
    r = await s.post(`/projects/${p.id}/fork`, { token: reporter.token, json: { namespace: owner.user.username } });
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Target Namespace Not Found' }]);
    r = await s.post(`/projects/${p.id}/fork`, { token: owner.token });
    expect([r.status, r.body]).to.deep.equal([409, { message: { name: ['has already been taken'], path: ['has already been taken'] } }]);
    r = await s.post(`/projects/${p.id}/fork`, { token: guest.token });
    expect([r.status, r.body]).to.deep.equal([409, { message: { forked_from_project_id: ['is forbidden'] } }]);
    expect(await s.db('projects').where({ forked_from_id: p.id })).to.have.length(0);
  });
});
