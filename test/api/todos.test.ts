// To-dos (GitLab 10.8 lib/api/todos.rb, TodoService, TodosFinder): which actions create them
// (assigned, mentioned, directly_addressed, marked), the rules (never for the actor or for a
// user who cannot read the target, one pending per user and target, done when the user acts),
// the entity, the list filters, and marking done.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { insertMember } from '../../src/services/members/members.js';
import { DEVELOPER } from '../../src/policy/levels.js';

const TODO_KEYS = ['id', 'project', 'author', 'action_name', 'target_type', 'target', 'target_url', 'body', 'state', 'created_at'];
const NOT_FOUND = { message: '404 Not found' };

describe('Todos', () => {
  const { s, owner, dev, reporter, guest, stranger } = useServerWithRoles('tdowner');

  let counter = 0;
  async function project(visibility = 'private') {
    const r = await projectWithRoles(s, owner, { dev, reporter, guest }, { name: `td${++counter}`, visibility });
    return { id: r.id as number, fullPath: r.path_with_namespace as string };
  }

  async function issue(projectId: number, body: Record<string, unknown>, token = owner.token) {
    const r = await s.post(`/projects/${projectId}/issues`, { token, json: body });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  async function todos(token: string, query: Record<string, string | number> = {}) {
    const r = await s.get('/todos', { token, query: { per_page: 100, ...query } });
    expect(r.status, r.text).to.equal(200);
    return r.body as any[];
  }

  async function clear(...accounts: Account[]) {
    for (const a of accounts) expect((await s.post('/todos/mark_as_done', { token: a.token })).status).to.equal(204);
  }

  const brief = (list: any[]) => list.map((t) => `${t.action_name}:${t.target.title}`);

  describe('creation', () => {
    beforeEach(async () => clear(owner, dev, reporter, guest, stranger));

    it('gives an assignee an `assigned` to-do with the full entity, but none to a self-assignee', async () => {
      const p = await project();
      const created = await issue(p.id, { title: 'Fix login', assignee_ids: [dev.user.id] });
      await issue(p.id, { title: 'Mine', assignee_ids: [owner.user.id] });
      const list = await todos(dev.token);
      expect(list).to.have.length(1);
      const [todo] = list;
      expect(Object.keys(todo)).to.deep.equal(TODO_KEYS);
      expect(todo).to.include({ action_name: 'assigned', target_type: 'Issue', body: 'Fix login', state: 'pending' });
      expect(todo.author).to.deep.include({ id: owner.user.id, username: 'tdowner' });
      expect(todo.project).to.include({ id: p.id, path_with_namespace: p.fullPath });
      expect(todo.project).to.have.keys(
        'id',
        'description',
        'name',
        'name_with_namespace',
        'path',
        'path_with_namespace',
        'created_at',
        'default_branch',
        'tag_list',
        'ssh_url_to_repo',
        'http_url_to_repo',
        'web_url',
        'avatar_url',
        'star_count',
        'forks_count',
        'last_activity_at',
      );
      expect(todo.target).to.deep.equal((await s.get(`/projects/${p.id}/issues/${created.iid}`, { token: dev.token })).body);
      expectSchema(todo.target, 'public_api/v4/issue.json');
      expect(todo.target_url).to.equal(`${s.url}/${p.fullPath}/issues/${created.iid}`);
      expect(await todos(owner.token)).to.deep.equal([]);
    });

    it('creates `directly_addressed` for leading mentions and `mentioned` for the others, not for code or unknown names', async () => {
      const p = await project();
      await issue(p.id, { title: 'Ping @reporter', description: '@dev please look\n\ncc @guest, not `@stranger` or @nobody' });
      expect(brief(await todos(dev.token))).to.deep.equal(['directly_addressed:Ping @reporter']);
      expect(brief(await todos(guest.token))).to.deep.equal(['mentioned:Ping @reporter']);
      expect(brief(await todos(reporter.token))).to.deep.equal(['mentioned:Ping @reporter']);
      expect(await todos(stranger.token)).to.deep.equal([]);
      // Being mentioned makes a participant: the embedded issue is the one the guest reads, subscribed.
      const [todo] = await todos(guest.token);
      expect(todo.target.subscribed).to.equal(true);
      expect(todo.target).to.deep.equal((await s.get(`/projects/${p.id}/issues/${todo.target.iid}`, { token: guest.token })).body);
    });

    it('never pings the actor, nor users who cannot read the target', async () => {
      const p = await project();
      await issue(p.id, { title: 'Self', description: '@tdowner note to self, @stranger cannot see this' });
      expect(await todos(owner.token)).to.deep.equal([]);
      expect(await todos(stranger.token)).to.deep.equal([]);
      // A confidential issue: the guest (not author nor assignee) cannot read it; the reporter can.
      await issue(p.id, { title: 'Hidden', confidential: true, description: '@guest @reporter' });
      expect(await todos(guest.token)).to.deep.equal([]);
      expect(brief(await todos(reporter.token))).to.deep.equal(['directly_addressed:Hidden']);
    });

    it('keeps one pending to-do per user and target: an assignee also mentioned is only `assigned`', async () => {
      const p = await project();
      await issue(p.id, { title: 'Both', assignee_ids: [dev.user.id], description: '@dev and again @dev' });
      expect(brief(await todos(dev.token))).to.deep.equal(['assigned:Both']);
    });

    it("on edit, pings newly mentioned users and new assignees only, and marks the editor's to-dos done", async () => {
      const p = await project();
      const i = await issue(p.id, { title: 'Edit me', description: 'hey @dev' });
      const r = await s.put(`/projects/${p.id}/issues/${i.iid}`, { token: owner.token, json: { description: 'hey @dev and @guest' } });
      expect(r.status, r.text).to.equal(200);
      expect(brief(await todos(guest.token))).to.deep.equal(['mentioned:Edit me']);
      expect(await todos(dev.token)).to.have.length(1);
      await clear(dev);
      await s.put(`/projects/${p.id}/issues/${i.iid}`, { token: owner.token, json: { description: 'hey @dev and @guest!' } });
      expect(await todos(dev.token)).to.deep.equal([]); // mentioned before: skipped
      await s.put(`/projects/${p.id}/issues/${i.iid}`, { token: owner.token, json: { assignee_ids: [reporter.user.id] } });
      expect(brief(await todos(reporter.token))).to.deep.equal(['assigned:Edit me']);
      // An assignee's own edit marks their to-do on the issue done.
      await s.put(`/projects/${p.id}/issues/${i.iid}`, { token: reporter.token, json: { title: 'Edited' } });
      expect(await todos(reporter.token)).to.deep.equal([]);
      expect(brief(await todos(reporter.token, { state: 'done', project_id: p.id }))).to.deep.equal(['assigned:Edited']);
    });

    it("marks the closer's pending to-dos on the issue done, and only theirs", async () => {
      const p = await project();
      const i = await issue(p.id, { title: 'Close me', description: '@dev @reporter' });
      await s.put(`/projects/${p.id}/issues/${i.iid}`, { token: dev.token, json: { state_event: 'close' } });
      expect(await todos(dev.token)).to.deep.equal([]);
      expect(brief(await todos(dev.token, { state: 'done', project_id: p.id }))).to.deep.equal(['directly_addressed:Close me']);
      expect(brief(await todos(reporter.token))).to.deep.equal(['directly_addressed:Close me']);
    });

    it("expands @all to the project's team when the author belongs to it", async () => {
      const p = await project();
      await issue(p.id, { title: 'Deploy', description: '@all deploying tonight' });
      for (const who of [dev, reporter, guest]) expect(brief(await todos(who.token))).to.deep.equal(['directly_addressed:Deploy']);
      expect(await todos(owner.token)).to.deep.equal([]);
      const open = await project('public');
      await issue(open.id, { title: 'Outsider', description: '@all hello' }, stranger.token); // not of the team: no one
      expect(brief(await todos(dev.token))).to.deep.equal(['directly_addressed:Deploy']);
    });

    it("expands @group mentions to the group's members who can read the target", async () => {
      const g = await s.post('/groups', { token: owner.token, json: { name: 'Team', path: 'team' } });
      expect(g.status, g.text).to.equal(201);
      await insertMember(s.db, { sourceType: 'group', sourceId: g.body.id, userId: dev.user.id, accessLevel: DEVELOPER });
      await insertMember(s.db, { sourceType: 'group', sourceId: g.body.id, userId: stranger.user.id, accessLevel: DEVELOPER });
      const p = await project();
      await issue(p.id, { title: 'Team ping', description: 'hello @team' });
      expect(brief(await todos(dev.token))).to.deep.equal(['mentioned:Team ping']);
      expect(await todos(stranger.token)).to.deep.equal([]); // not a member of this private project
    });
  });

  describe('the list and marking done', () => {
    let p: { id: number; fullPath: string };
    let other: { id: number; fullPath: string };

    before(async () => {
      await clear(owner, dev, reporter, guest, stranger);
      p = await project();
      other = await project();
      await issue(p.id, { title: 'One', assignee_ids: [dev.user.id] });
      await issue(p.id, { title: 'Two', description: '@dev' }, reporter.token);
      await issue(other.id, { title: 'Three', description: 'see @dev' });
    });

    it('lists pending to-dos newest first and filters by action, author, project, state and type', async () => {
      expect(brief(await todos(dev.token))).to.deep.equal(['mentioned:Three', 'directly_addressed:Two', 'assigned:One']);
      expect(brief(await todos(dev.token, { action: 'assigned' }))).to.deep.equal(['assigned:One']);
      expect(brief(await todos(dev.token, { action_id: 7 }))).to.deep.equal(['directly_addressed:Two']);
      expect(brief(await todos(dev.token, { author_id: reporter.user.id }))).to.deep.equal(['directly_addressed:Two']);
      expect(brief(await todos(dev.token, { project_id: other.id }))).to.deep.equal(['mentioned:Three']);
      expect(brief(await todos(dev.token, { type: 'Issue' }))).to.have.length(3);
      expect(await todos(dev.token, { type: 'MergeRequest' })).to.deep.equal([]);
      expect(await todos(dev.token, { state: 'done', project_id: p.id })).to.deep.equal([]);
      expect(brief(await todos(dev.token, { action: 'bogus', type: 'Nope' }))).to.have.length(3); // ignored, as in 10.8
      const r = await s.get('/todos', { token: dev.token, query: { per_page: 2 } });
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.headers.get('x-next-page')).to.equal('2');
    });

    it('answers "404 Not found" for an unknown author or project, and 401 without a user', async () => {
      for (const query of [{ author_id: 999999 }, { project_id: 999999 }] as Record<string, number>[]) {
        const r = await s.get('/todos', { token: dev.token, query });
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
      const r = await s.get('/todos', { token: null });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
      expect((await s.post('/todos/mark_as_done', { token: null })).status).to.equal(401);
    });

    it("marks one to-do done (201 with the to-do), refusing other users' to-dos", async () => {
      const [latest] = await todos(dev.token);
      let r = await s.post(`/todos/${latest.id}/mark_as_done`, { token: reporter.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.post('/todos/abc/mark_as_done', { token: dev.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'id is invalid' });
      r = await s.post(`/todos/${latest.id}/mark_as_done`, { token: dev.token });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({ ...latest, state: 'done' });
      r = await s.post(`/todos/${latest.id}/mark_as_done`, { token: dev.token }); // again: still 201
      expect(r.status).to.equal(201);
      expect(r.body.state).to.equal('done');
      expect(brief(await todos(dev.token, { state: 'done', project_id: other.id }))).to.deep.equal(['mentioned:Three']);
    });

    it('marks all pending to-dos done with 204 and an empty body', async () => {
      const r = await s.post('/todos/mark_as_done', { token: dev.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect(await todos(dev.token)).to.deep.equal([]);
      expect(await todos(dev.token, { state: 'done', project_id: p.id })).to.have.length(2);
      expect(await todos(dev.token, { state: 'done', project_id: other.id })).to.have.length(1);
    });
  });

  describe('POST .../issues/:iid/todo', () => {
    it('creates a `marked` to-do (201), then answers 304 with no body while it is pending', async () => {
      await clear(guest);
      const p = await project();
      const i = await issue(p.id, { title: 'Remember' });
      let r = await s.post(`/projects/${p.id}/issues/${i.iid}/todo`, { token: guest.token });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(TODO_KEYS);
      expect(r.body).to.include({ action_name: 'marked', body: 'Remember', state: 'pending', target_type: 'Issue' });
      expect(r.body.author.id).to.equal(guest.user.id);
      r = await s.post(`/projects/${p.id}/issues/${i.iid}/todo`, { token: guest.token });
      expect(r.status).to.equal(304);
      expect(r.text).to.equal('');
      await clear(guest);
      r = await s.post(`/projects/${p.id}/issues/${i.iid}/todo`, { token: guest.token });
      expect(r.status).to.equal(201);
    });

    it('answers 404 for unknown or unreadable issues, 404 for unreadable projects, 401 anonymously', async () => {
      const p = await project();
      const secret = await issue(p.id, { title: 'Secret', confidential: true });
      let r = await s.post(`/projects/${p.id}/issues/${secret.iid}/todo`, { token: guest.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.post(`/projects/${p.id}/issues/999/todo`, { token: guest.token });
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.post(`/projects/${p.id}/issues/${secret.iid}/todo`, { token: stranger.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
      r = await s.post(`/projects/${p.id}/issues/${secret.iid}/todo`, { token: null });
      expect(r.status).to.equal(401);
    });

    it('hides to-dos whose target the user can no longer read', async () => {
      await clear(guest);
      const p = await project();
      const i = await issue(p.id, { title: 'Soon secret', description: '@guest' });
      expect(await todos(guest.token)).to.have.length(1);
      await s.put(`/projects/${p.id}/issues/${i.iid}`, { token: owner.token, json: { confidential: true } });
      expect(await todos(guest.token)).to.deep.equal([]);
    });
  });
});
