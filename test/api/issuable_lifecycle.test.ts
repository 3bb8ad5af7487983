// What ties issues and merge requests together at their edges: a follow-up issue for a merge
// request's discussions, the rows that go with a deleted issue or project (polymorphic rows
// have no foreign key to cascade on), and merged-branch cleanup sparing open merge requests.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { addProjectMembers, createRoles, type Roles } from '../helpers/roles.js';
import { GUEST, REPORTER } from '../../src/policy/levels.js';
import { expectSchema } from '../helpers/schema.js';

describe('Issues and merge requests: follow-ups and deletion', () => {
  let s: TestServer;
  let roles: Roles;

  before(async () => {
    s = await bootServer();
    roles = await createRoles(s);
  });
  after(async () => s.close());

  let counter = 0;
  /** A private project with master and a `feature` branch one commit ahead, and an MR of it. */
  async function projectWithMergeRequest() {
    const { owner } = roles;
    const r = await s.post('/projects', { token: owner.token, json: { name: `life${++counter}` } });
    expect(r.status, r.text).to.equal(201);
    const id = r.body.id as number;
    await addProjectMembers(s, id, [[roles.reporter, REPORTER]]);
    const commit = async (branch: string, file: string, extra: Record<string, string> = {}) => {
      const c = await s.post(`/projects/${id}/repository/commits`, {
        token: owner.token,
        json: { branch, commit_message: `add ${file}`, actions: [{ action: 'create', file_path: file, content: 'x\n' }], ...extra },
      });
      expect(c.status, c.text).to.equal(201);
    };
    await commit('master', 'README.md');
    await commit('feature', 'a.txt', { start_branch: 'master' });
    const mr = await s.post(`/projects/${id}/merge_requests`, {
      token: owner.token,
      json: { source_branch: 'feature', target_branch: 'master', title: 'Add a' },
    });
    expect(mr.status, mr.text).to.equal(201);
    return { id, mrIid: mr.body.iid as number, mrId: mr.body.id as number };
  }

  async function count(table: string, where: Record<string, unknown>): Promise<number> {
    const row = await s.db(table).where(where).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  describe('merge_request_to_resolve_discussions_of', () => {
    it('fills the description from a readable merge request; an explicit description wins', async () => {
      const { id, mrIid } = await projectWithMergeRequest();
      let r = await s.post(`/projects/${id}/issues`, { token: roles.reporter.token, json: { title: 'Follow up', merge_request_to_resolve_discussions_of: mrIid } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.title).to.equal('Follow up');
      expect(r.body.description).to.equal(`There are no unresolved discussions. Review the conversation in !${mrIid}`);

      r = await s.post(`/projects/${id}/issues`, {
        token: roles.reporter.token,
        json: { title: 'Own words', description: 'mine', merge_request_to_resolve_discussions_of: mrIid, discussion_to_resolve: 'abc' },
      });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.description).to.equal('mine');
    });

    it('ignores an unknown merge request, and rejects a non-integer iid', async () => {
      const { id } = await projectWithMergeRequest();
      let r = await s.post(`/projects/${id}/issues`, { token: roles.owner.token, json: { title: 'x', merge_request_to_resolve_discussions_of: 999 } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.description).to.equal(null);
      r = await s.post(`/projects/${id}/issues`, { token: roles.owner.token, json: { title: 'x', merge_request_to_resolve_discussions_of: 'one' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'merge_request_to_resolve_discussions_of is invalid' });
    });
  });

  describe("a milestone's merge requests", () => {
    it('lists them by label priority for readers of merge requests, none for a guest of a private project', async () => {
      const { id, mrIid } = await projectWithMergeRequest();
      await addProjectMembers(s, id, [[roles.guest, GUEST]]);
      const m = await s.post(`/projects/${id}/milestones`, { token: roles.owner.token, json: { title: 'v1' } });
      expect(m.status, m.text).to.equal(201);
      const r = await s.put(`/projects/${id}/merge_requests/${mrIid}`, { token: roles.owner.token, json: { milestone_id: m.body.id } });
      expect(r.status, r.text).to.equal(200);
      const list = await s.get(`/projects/${id}/milestones/${m.body.id}/merge_requests`, { token: roles.reporter.token });
      expect(list.status).to.equal(200);
      expectSchema(list.body, 'public_api/v4/merge_requests.json');
      expect(list.body.map((x: { iid: number }) => x.iid)).to.deep.equal([mrIid]);
      expect(list.body[0].milestone.title).to.equal('v1');
      expect(list.headers.get('x-total')).to.equal('1');
      const guest = await s.get(`/projects/${id}/milestones/${m.body.id}/merge_requests`, { token: roles.guest.token });
      expect(guest.status).to.equal(200);
      expect(guest.body).to.deep.equal([]);
    });
  });

  describe('deletion', () => {
    it('deleting an issue removes its notes, award emoji, subscriptions, events and todos', async () => {
      const { id } = await projectWithMergeRequest();
      const { owner, reporter } = roles;
      const issue = await s.post(`/projects/${id}/issues`, { token: reporter.token, json: { title: 'Doomed', assignee_ids: [owner.user.id] } });
      expect(issue.status, issue.text).to.equal(201);
      const iid = issue.body.iid as number;
      const note = await s.post(`/projects/${id}/issues/${iid}/notes`, { token: reporter.token, json: { body: `@${owner.user.username} look` } });
      expect(note.status, note.text).to.equal(201);
      expect((await s.post(`/projects/${id}/issues/${iid}/award_emoji`, { token: owner.token, json: { name: 'thumbsup' } })).status).to.equal(201);
      expect((await s.post(`/projects/${id}/issues/${iid}/notes/${note.body.id}/award_emoji`, { token: owner.token, json: { name: 'tada' } })).status).to.equal(201);
      expect((await s.post(`/projects/${id}/issues/${iid}/subscribe`, { token: roles.admin.token })).status).to.equal(201);
      expect(await count('todos', { target_type: 'Issue', target_id: issue.body.id })).to.be.greaterThan(0);

      const r = await s.delete(`/projects/${id}/issues/${iid}`, { token: owner.token });
      expect(r.status).to.equal(204);
      expect(await count('notes', { noteable_type: 'Issue', noteable_id: issue.body.id })).to.equal(0);
      expect(await count('award_emoji', { awardable_type: 'Issue', awardable_id: issue.body.id })).to.equal(0);
      expect(await count('award_emoji', { awardable_type: 'Note', awardable_id: note.body.id })).to.equal(0);
      expect(await count('subscriptions', { subscribable_type: 'Issue', subscribable_id: issue.body.id })).to.equal(0);
      expect(await count('events', { target_type: 'Issue', target_id: issue.body.id })).to.equal(0);
      expect(await count('events', { target_type: 'Note', target_id: note.body.id })).to.equal(0);
      expect(await count('todos', { target_type: 'Issue', target_id: issue.body.id })).to.equal(0);
    });

    it('deleting a project leaves no award emoji of its issues, notes or merge requests', async () => {
      const { id, mrIid, mrId } = await projectWithMergeRequest();
      const { owner, reporter } = roles;
      const issue = await s.post(`/projects/${id}/issues`, { token: owner.token, json: { title: 'Gone' } });
      const note = await s.post(`/projects/${id}/issues/${issue.body.iid}/notes`, { token: owner.token, json: { body: 'hi' } });
      for (const path of [`issues/${issue.body.iid}`, `issues/${issue.body.iid}/notes/${note.body.id}`, `merge_requests/${mrIid}`]) {
        const r = await s.post(`/projects/${id}/${path}/award_emoji`, { token: reporter.token, json: { name: 'heart' } });
        expect(r.status, `${path}: ${r.text}`).to.equal(201);
      }
      const r = await s.delete(`/projects/${id}`, { token: owner.token });
      expect(r.status).to.equal(202);
      expect(await count('award_emoji', { awardable_type: 'Issue', awardable_id: issue.body.id })).to.equal(0);
      expect(await count('award_emoji', { awardable_type: 'Note', awardable_id: note.body.id })).to.equal(0);
      expect(await count('award_emoji', { awardable_type: 'MergeRequest', awardable_id: mrId })).to.equal(0);
      expect(await count('merge_requests', { id: mrId })).to.equal(0);
    });
  });

  describe('DELETE merged_branches', () => {
    it('keeps a merged branch that is the source of an open merge request', async () => {
      const { owner } = roles;
      const p = await s.post('/projects', { token: owner.token, json: { name: `merged${++counter}` } });
      const id = p.body.id as number;
      const commit = async (file: string) => {
        const r = await s.post(`/projects/${id}/repository/commits`, {
          token: owner.token,
          json: { branch: 'master', commit_message: file, actions: [{ action: 'create', file_path: file, content: file }] },
        });
        expect(r.status, r.text).to.equal(201);
      };
      const branch = async (name: string) => {
        const r = await s.post(`/projects/${id}/repository/branches`, { token: owner.token, json: { branch: name, ref: 'master' } });
        expect(r.status, r.text).to.equal(201);
      };
      await commit('a'); // C0
      await branch('other');
      await commit('b'); // C1
      await branch('kept');
      await branch('plain');
      await commit('c'); // C2: kept, plain and other are all merged into master now
      const mr = await s.post(`/projects/${id}/merge_requests`, { token: owner.token, json: { source_branch: 'kept', target_branch: 'other', title: 'k' } });
      expect(mr.status, mr.text).to.equal(201);

      const r = await s.delete(`/projects/${id}/repository/merged_branches`, { token: owner.token });
      expect(r.status).to.equal(202);
      const names = (await s.get(`/projects/${id}/repository/branches`, { token: owner.token })).body.map((b: { name: string }) => b.name);
      expect(names).to.deep.equal(['kept', 'master']);
    });
  });
});
