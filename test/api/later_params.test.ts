// The parameters later GitLab versions added, taken next to 10.8's with their later meaning
// (the ones Renovate and other current clients send): the list scopes spelt `created_by_me`
// and `assigned_to_me` (11.0), a merge request's `assignee_ids` and the `add_labels` /
// `remove_labels` of an edit, `min_access_level` on project lists (11.2), and a group's
// `with_shared` and `include_subgroups` (11.6). 10.8's values keep their answers.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, addProjectMembers } from '../helpers/roles.js';
import { commitFiles, createBranch, openMergeRequest } from '../helpers/projects.js';
import { DEVELOPER, OWNER, REPORTER } from '../../src/policy/levels.js';
import { insertMember } from '../../src/services/members/members.js';

const UPDATE_AT_LEAST_ONE =
  'assignee_id, description, labels, milestone_id, remove_source_branch, state_event, target_branch, title, discussion_locked are missing, at least one parameter must be provided';

describe('Later GitLab parameters', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(extra: Record<string, unknown> = {}) {
    const r = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `later${++counter}`, visibility: 'private', ...extra });
    await commitFiles(s, r.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hi\n' }], { message: 'Initial', token: owner.token });
    await createBranch(s, r.id, 'feature', 'master', owner.token);
    await commitFiles(s, r.id, 'feature', [{ action: 'create', file_path: 'a.txt', content: 'a\n' }], { message: 'Add a', token: owner.token });
    return r as { id: number; path_with_namespace: string };
  }

  const openMr = (id: number, body: Record<string, unknown> = {}, token = owner.token) =>
    openMergeRequest(s, id, { title: 'MR', source_branch: 'feature', target_branch: 'master', ...body }, token);

  describe('scope spelt with underscores (GitLab 11.0)', () => {
    it('lists merge requests with created_by_me and assigned_to_me as with created-by-me and assigned-to-me', async () => {
      const p = await project();
      await createBranch(s, p.id, 'other', 'feature', owner.token);
      await commitFiles(s, p.id, 'other', [{ action: 'create', file_path: 'b.txt', content: 'b\n' }], { message: 'Add b', token: owner.token });
      const mine = await openMr(p.id, { title: 'By owner', assignee_id: dev.user.id });
      await openMr(p.id, { title: 'By dev', source_branch: 'other' }, dev.token);
      const list = async (query: Record<string, string>, token: string) => {
        const r = await s.get(`/projects/${p.id}/merge_requests`, { token, query });
        expect(r.status).to.equal(200);
        return r.body.map((m: { title: string }) => m.title);
      };
      expect(await list({ scope: 'created_by_me' }, owner.token)).to.deep.equal(['By owner']);
      expect(await list({ scope: 'created-by-me' }, owner.token)).to.deep.equal(['By owner']);
      expect(await list({ scope: 'assigned_to_me' }, dev.token)).to.deep.equal(['By owner']);
      expect(await list({ scope: 'created_by_me' }, dev.token)).to.deep.equal(['By dev']);
      expect(await list({ scope: 'all' }, dev.token)).to.deep.equal(['By dev', 'By owner']);
      const global = await s.get('/merge_requests', { token: owner.token, query: { scope: 'created_by_me', state: 'opened' } });
      expect(global.body.map((m: { iid: number }) => m.iid)).to.include(mine.iid);
      // Anonymous callers still need scope=all on the global list.
      expect((await s.get('/merge_requests', { token: null, query: { scope: 'created_by_me' } })).status).to.equal(401);
    });

    it('lists issues with created_by_me and assigned_to_me', async () => {
      const p = await project();
      await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: 'Owner issue', assignee_ids: [dev.user.id] } });
      await s.post(`/projects/${p.id}/issues`, { token: reporter.token, json: { title: 'Reporter issue' } });
      const titles = async (query: Record<string, string>, token: string) => {
        const r = await s.get(`/projects/${p.id}/issues`, { token, query });
        expect(r.status).to.equal(200);
        return r.body.map((i: { title: string }) => i.title);
      };
      expect(await titles({ scope: 'created_by_me', state: 'opened' }, reporter.token)).to.deep.equal(['Reporter issue']);
      expect(await titles({ scope: 'assigned_to_me' }, dev.token)).to.deep.equal(['Owner issue']);
      expect(await titles({ scope: 'assigned-to-me' }, dev.token)).to.deep.equal(['Owner issue']);
    });

    it('still refuses an unknown scope in 10.8 words', async () => {
      const p = await project();
      for (const path of [`/projects/${p.id}/merge_requests`, `/projects/${p.id}/issues`, '/issues', '/merge_requests']) {
        const r = await s.get(path, { token: owner.token, query: { scope: 'created_by_you' } });
        expect(r.status, path).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'scope does not have a valid value' });
      }
    });
  });

  describe("a merge request's assignee_ids", () => {
    it('assigns the first readable id from assignee_ids[] in the query string (as Renovate sends it)', async () => {
      const p = await project();
      const mr = await openMr(p.id);
      const r = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}?assignee_ids%5B%5D=${dev.user.id}&assignee_ids%5B%5D=${master.user.id}`, { token: owner.token });
      expect(r.status).to.equal(200);
      expect(r.body.assignee.id).to.equal(dev.user.id);
      expect((await s.get(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token })).body.assignee.id).to.equal(dev.user.id);
    });

    it('takes a JSON array or a comma-separated string; [] or 0 unassigns; a stranger is not assigned', async () => {
      const p = await project();
      const mr = await openMr(p.id);
      const put = (json: Record<string, unknown>) => s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token, json });
      expect((await put({ assignee_ids: `${master.user.id},${dev.user.id}` })).body.assignee.id).to.equal(master.user.id);
      expect((await put({ assignee_ids: [dev.user.id] })).body.assignee.id).to.equal(dev.user.id);
      expect((await put({ assignee_ids: [stranger.user.id] })).body.assignee.id).to.equal(dev.user.id);
      expect((await put({ assignee_ids: [] })).body.assignee).to.equal(null);
      await put({ assignee_ids: [dev.user.id] });
      expect((await put({ assignee_ids: [0] })).body.assignee).to.equal(null);
      // 10.8's assignee_id wins when both are given.
      expect((await put({ assignee_id: master.user.id, assignee_ids: [dev.user.id] })).body.assignee.id).to.equal(master.user.id);
      const bad = await put({ assignee_ids: ['x'] });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'assignee_ids is invalid' });
    });

    it('is taken on create, and dropped for a user without admin_merge_request', async () => {
      const p = await project();
      const mr = await openMr(p.id, { assignee_ids: [dev.user.id] });
      expect(mr.assignee.id).to.equal(dev.user.id);
      const byDev = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: dev.token, json: { assignee_ids: [master.user.id] } });
      expect(byDev.status).to.equal(200);
      expect(byDev.body.assignee.id).to.equal(master.user.id); // a developer may admin merge requests
      const other = await s.post(`/projects/${p.id}/merge_requests`, { token: guest.token, json: { title: 'G', source_branch: 'feature', target_branch: 'master' } });
      expect(other.status).to.equal(403);
    });

    it('keeps 10.8 message when no parameter is given', async () => {
      const p = await project();
      const mr = await openMr(p.id);
      const r = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token, json: {} });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: UPDATE_AT_LEAST_ONE });
    });
  });

  describe('add_labels and remove_labels', () => {
    it("change a merge request's labels, creating an added one, without touching the others", async () => {
      const p = await project();
      const mr = await openMr(p.id, { labels: 'bug,keep' });
      const put = (json: Record<string, unknown>, token = owner.token) => s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token, json });
      let r = await put({ add_labels: ['renovate', 'deps'] });
      expect(r.status).to.equal(200);
      expect([...r.body.labels].sort()).to.deep.equal(['bug', 'deps', 'keep', 'renovate']);
      r = await put({ remove_labels: 'bug, deps,absent' });
      expect([...r.body.labels].sort()).to.deep.equal(['keep', 'renovate']);
      // With add/remove, `labels` is ignored (process_label_ids).
      r = await put({ labels: 'only', add_labels: 'bug' });
      expect([...r.body.labels].sort()).to.deep.equal(['bug', 'keep', 'renovate']);
      // A removal never creates the label.
      await put({ remove_labels: ['never-made'] });
      expect((await s.get(`/projects/${p.id}/labels`, { token: owner.token })).body.map((l: { name: string }) => l.name)).to.not.include('never-made');
      // A reporter may not edit it at all; a developer may.
      expect((await put({ add_labels: ['x'] }, reporter.token)).status).to.equal(403);
      r = await put({ remove_labels: ['keep'] }, dev.token);
      expect([...r.body.labels].sort()).to.deep.equal(['bug', 'renovate']);
    });

    it("change an issue's labels", async () => {
      const p = await project();
      const issue = (await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: 'I', labels: 'a,b' } })).body;
      const r = await s.put(`/projects/${p.id}/issues/${issue.iid}`, { token: owner.token, json: { add_labels: 'c', remove_labels: ['a'] } });
      expect(r.status).to.equal(200);
      expect([...r.body.labels].sort()).to.deep.equal(['b', 'c']);
    });
  });

  describe('min_access_level on project lists (GitLab 11.2)', () => {
    it('lists only the projects the user is a member of at that level or more', async () => {
      const p = await project();
      const ids = async (query: Record<string, string | number | boolean>, token: string, path = '/projects') => {
        const r = await s.get(path, { token, query: { per_page: 100, ...query } });
        expect(r.status).to.equal(200);
        return r.body.map((x: { id: number }) => x.id);
      };
      expect(await ids({ min_access_level: DEVELOPER }, dev.token)).to.include(p.id);
      expect(await ids({ min_access_level: DEVELOPER }, reporter.token)).to.not.include(p.id);
      expect(await ids({ min_access_level: REPORTER, membership: true }, reporter.token)).to.include(p.id);
      // The owner of a personal project is a Maintainer of it, not an owner.
      expect(await ids({ min_access_level: 40 }, owner.token)).to.include(p.id);
      expect(await ids({ min_access_level: OWNER }, owner.token)).to.not.include(p.id);
      // An admin sees only the projects of their memberships.
      expect(await ids({ min_access_level: 10 }, admin.token)).to.not.include(p.id);
      expect(await ids({}, admin.token)).to.include(p.id);
      // The anonymous see nothing.
      expect(await ids({ min_access_level: 10 }, '')).to.deep.equal([]);
      expect(await ids({ min_access_level: DEVELOPER }, dev.token, `/users/${owner.user.id}/projects`)).to.include(p.id);
      expect(await ids({ min_access_level: DEVELOPER }, reporter.token, `/users/${owner.user.id}/projects`)).to.not.include(p.id);
    });

    it('refuses what is not an access level', async () => {
      for (const [value, error] of [
        ['25', 'does not have a valid value'],
        ['0', 'does not have a valid value'],
        ['dev', 'is invalid'],
      ]) {
        const r = await s.get('/projects', { token: dev.token, query: { min_access_level: value } });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ error: `min_access_level ${error}` });
      }
    });
  });

  describe("a group's with_shared and include_subgroups (GitLab 11.6)", () => {
    it('lists the projects of subgroups, and leaves shared projects out', async () => {
      const group = (await s.post('/groups', { token: owner.token, json: { name: 'Top', path: 'top-later' } })).body;
      const sub = (await s.post('/groups', { token: owner.token, json: { name: 'Sub', path: 'sub', parent_id: group.id } })).body;
      const inTop = (await s.post('/projects', { token: owner.token, json: { name: 'in-top', namespace_id: group.id } })).body;
      const inSub = (await s.post('/projects', { token: owner.token, json: { name: 'in-sub', namespace_id: sub.id } })).body;
      const shared = (await s.post('/projects', { token: owner.token, json: { name: 'shared-in' } })).body;
      expect((await s.post(`/projects/${shared.id}/share`, { token: owner.token, json: { group_id: group.id, group_access: DEVELOPER } })).status).to.equal(201);
      await insertMember(s.db, { sourceType: 'group', sourceId: sub.id, userId: reporter.user.id, accessLevel: REPORTER });
      const ids = async (query: Record<string, string | number | boolean>, token = owner.token) => {
        const r = await s.get(`/groups/${group.id}/projects`, { token, query });
        expect(r.status).to.equal(200);
        return r.body.map((x: { id: number }) => x.id).sort();
      };
      expect(await ids({})).to.deep.equal([inTop.id, shared.id].sort());
      expect(await ids({ with_shared: false })).to.deep.equal([inTop.id]);
      expect(await ids({ include_subgroups: true })).to.deep.equal([inTop.id, inSub.id, shared.id].sort());
      expect(await ids({ include_subgroups: true, with_shared: false })).to.deep.equal([inTop.id, inSub.id].sort());
      // As Renovate's autodiscovery asks: developer or more only.
      await addProjectMembers(s, inTop.id, [[dev, DEVELOPER]]);
      expect(await ids({ include_subgroups: true, with_shared: false, min_access_level: DEVELOPER }, dev.token)).to.deep.equal([inTop.id]);
      expect(await ids({ include_subgroups: true, min_access_level: DEVELOPER }, reporter.token)).to.deep.equal([]);
      expect(await ids({ include_subgroups: true, min_access_level: REPORTER }, reporter.token)).to.deep.equal([inSub.id]);
      const bad = await s.get(`/groups/${group.id}/projects`, { token: owner.token, query: { include_subgroups: 'maybe' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'include_subgroups is invalid' });
    });
  });
});
