// Activity events (GitLab 10.8 lib/api/events.rb, EventsFinder, EventCreateService,
// PushEventPayloadService): what each action records, the entity, the three lists with
// every filter, visibility (projects, confidential issues, code), and the one-year retention.
import { expect } from 'chai';
import { useServerWithRoles, addProjectMembers } from '../helpers/roles.js';
import { ROOT_TOKEN } from '../helpers/server.js';
import { createProject } from '../helpers/projects.js';
import { commit, gitOk, repoUrl, workRepo } from '../transport/git_client.js';
import { insertMember, removeMember } from '../../src/services/members/members.js';
import { createMilestone, updateMilestone } from '../../src/services/milestones/milestones.js';
import { recordEvent } from '../../src/services/activity/events.js';
import { PRUNE_OLD_EVENTS } from '../../src/jobs/event_retention.js';
import { GUEST, REPORTER } from '../../src/policy/levels.js';

const EVENT_KEYS = ['title', 'project_id', 'action_name', 'target_id', 'target_iid', 'target_type', 'author_id', 'target_title', 'created_at', 'author', 'author_username'];
const PUSH_KEYS = [
  'title',
  'project_id',
  'action_name',
  'target_id',
  'target_iid',
  'target_type',
  'author_id',
  'target_title',
  'created_at',
  'author',
  'push_data',
  'author_username',
];

describe('Events', () => {
  const { s, owner, dev, reporter, guest, stranger } = useServerWithRoles('evowner');

  let counter = 0;
  async function project(visibility = 'private') {
    const r = await createProject(s, owner.token, { name: `ev${++counter}`, visibility });
    return { id: r.id as number, fullPath: r.path_with_namespace as string };
  }

  async function events(path: string, token: string | null = owner.token, query: Record<string, string | number> = {}) {
    const r = await s.get(path, { token, query: { per_page: 100, ...query } });
    expect(r.status, r.text).to.equal(200);
    return r.body as any[];
  }

  const summary = (list: any[]) => list.map((e) => `${e.action_name}|${e.target_type}|${e.target_title}`);

  describe('recording', () => {
    it('records the project creation, with GitLab key order and no target', async () => {
      const p = await project();
      const [created] = await events(`/projects/${p.id}/events`);
      expect(Object.keys(created)).to.deep.equal(EVENT_KEYS);
      expect(created).to.include({
        title: null,
        project_id: p.id,
        action_name: 'created',
        target_id: null,
        target_iid: null,
        target_type: null,
        author_id: owner.user.id,
        target_title: null,
        author_username: 'evowner',
      });
      expect(created.author).to.deep.include({ id: owner.user.id, username: 'evowner' });
      expect(created.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('records issues opened, closed and reopened ("opened" again), not edits', async () => {
      const p = await project();
      const issue = (await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: 'Broken' } })).body;
      await s.put(`/projects/${p.id}/issues/${issue.iid}`, { token: owner.token, json: { description: 'edit only' } });
      await s.put(`/projects/${p.id}/issues/${issue.iid}`, { token: owner.token, json: { state_event: 'close' } });
      await s.put(`/projects/${p.id}/issues/${issue.iid}`, { token: owner.token, json: { state_event: 'close' } }); // already closed
      await s.put(`/projects/${p.id}/issues/${issue.iid}`, { token: owner.token, json: { state_event: 'reopen', title: 'Broken again' } });
      const list = await events(`/projects/${p.id}/events`, owner.token, { target_type: 'issue', sort: 'asc' });
      expect(summary(list)).to.deep.equal(['opened|Issue|Broken again', 'closed|Issue|Broken again', 'opened|Issue|Broken again']);
      expect(list[0]).to.include({ target_id: issue.id, target_iid: issue.iid });
      const reopened = await events(`/projects/${p.id}/events`, owner.token, { action: 'reopened' });
      expect(reopened).to.have.length(1);
    });

    it('records milestones opened, closed and reopened when the caller names the actor', async () => {
      const p = await project();
      const m = await createMilestone(s.db, p.id, { title: 'v1' }, dev.user.id);
      const closed = await updateMilestone(s.db, m, { stateEvent: 'close' }, dev.user.id);
      await updateMilestone(s.db, closed, { stateEvent: 'activate' }, dev.user.id);
      const list = await events(`/projects/${p.id}/events`, owner.token, { target_type: 'milestone', sort: 'asc' });
      expect(summary(list)).to.deep.equal(['opened|Milestone|v1', 'closed|Milestone|v1', 'opened|Milestone|v1']);
      expect(list[0]).to.include({ target_id: m.id, target_iid: m.iid, author_id: dev.user.id });
    });

    it('records members joining and leaving (authored by the member), expired memberships, not the owner', async () => {
      const p = await project();
      let r = await s.post(`/projects/${p.id}/members`, { token: owner.token, json: { user_id: dev.user.id, access_level: 30 } });
      expect(r.status, r.text).to.equal(201);
      r = await s.delete(`/projects/${p.id}/members/${dev.user.id}`, { token: owner.token });
      expect(r.status, r.text).to.equal(204);
      const expired = await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: guest.user.id, accessLevel: GUEST, expiresAt: '2020-01-01' });
      await removeMember(s.db, expired, async () => {});
      const list = await events(`/projects/${p.id}/events`, owner.token, { sort: 'asc' });
      expect(list.map((e) => `${e.action_name}|${e.author_username}`)).to.deep.equal([
        'created|evowner',
        'joined|dev',
        'left|dev',
        'removed due to membership expiration from|guest',
      ]);
      const joined = list[1];
      expect(joined).to.include({ target_type: null, target_id: null, target_title: null, project_id: p.id });
      expect((await events(`/projects/${p.id}/events`, owner.token, { action: 'expired' })).length).to.equal(1);
    });
  });

  describe('push events', () => {
    it('records git pushes: new branch, pushed to, tags, deletions, with their payloads', async () => {
      const p = await project();
      const url = repoUrl(s, p.fullPath, owner.token, 'evowner');
      const dir = await workRepo([{ a: '1' }, { b: '2' }, { c: '3' }]);
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
      const first = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
      await commit(dir, { d: '4' }, 'Fourth');
      const longTitle = `${'L'.repeat(80)}\n\nbody`;
      const last = await commit(dir, { e: '5' }, longTitle);
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
      await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: dir });
      const feature = await commit(dir, { f: '6' }, 'Feature work');
      await gitOk(['tag', 'v1', 'HEAD~2'], { cwd: dir });
      await gitOk(['push', '-q', url, 'feature', 'v1'], { cwd: dir });
      await gitOk(['push', '-q', url, ':feature', ':v1'], { cwd: dir });

      const list = await events(`/projects/${p.id}/events`, owner.token, { action: 'pushed', sort: 'asc' });
      expect(Object.keys(list[0])).to.deep.equal(PUSH_KEYS);
      expect(list.map((e) => e.action_name)).to.deep.equal(['pushed new', 'pushed to', 'pushed new', 'pushed new', 'deleted', 'deleted']);
      expect(list[0].push_data).to.deep.equal({
        commit_count: 3,
        action: 'created',
        ref_type: 'branch',
        commit_from: null,
        commit_to: first,
        ref: 'master',
        commit_title: 'commit 3',
      });
      expect(list[1].push_data).to.deep.equal({
        commit_count: 2,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: first,
        commit_to: last,
        ref: 'master',
        commit_title: `${'L'.repeat(67)}...`,
      });
      // A new branch counts only what the default branch does not have.
      expect(list[2].push_data).to.deep.include({ commit_count: 1, action: 'created', ref: 'feature', commit_to: feature, commit_title: 'Feature work' });
      expect(list[3].push_data).to.deep.include({ commit_count: 1, action: 'created', ref_type: 'tag', ref: 'v1', commit_title: 'Fourth' });
      expect(list[4].push_data).to.deep.include({ commit_count: 0, action: 'removed', commit_from: feature, commit_to: null, commit_title: null });
      expect(list[5].push_data).to.deep.include({ action: 'removed', ref_type: 'tag', ref: 'v1', commit_to: null });
      for (const e of list) expect(e).to.include({ target_type: null, author_id: owner.user.id });
    });

    it('counts no commits for a force push that only rewinds a branch', async () => {
      const p = await project();
      const url = repoUrl(s, p.fullPath, owner.token, 'evowner');
      const dir = await workRepo([{ a: '1' }, { b: '2' }]);
      await gitOk(['push', '-q', url, 'master', 'master:topic'], { cwd: dir }); // master is protected: rewind topic
      const head = (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
      const parent = (await gitOk(['rev-parse', 'HEAD~1'], { cwd: dir })).trim();
      await gitOk(['push', '-q', '-f', url, 'HEAD~1:topic'], { cwd: dir });
      const [rewind] = await events(`/projects/${p.id}/events`, owner.token, { action: 'pushed' });
      expect(rewind.action_name).to.equal('pushed to');
      expect(rewind.push_data).to.deep.equal({
        commit_count: 0,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: head,
        commit_to: parent,
        ref: 'topic',
        commit_title: null,
      });
    });

    it('records commits and branches made through the API as pushes', async () => {
      const p = await project();
      let r = await s.post(`/projects/${p.id}/repository/files/${encodeURIComponent('README.md')}`, {
        token: owner.token,
        json: { branch: 'master', content: 'hi', commit_message: 'Add README' },
      });
      expect(r.status, r.text).to.equal(201);
      r = await s.post(`/projects/${p.id}/repository/files/two.txt`, { token: owner.token, json: { branch: 'master', content: '2', commit_message: 'Second file' } });
      expect(r.status, r.text).to.equal(201);
      r = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'topic', ref: 'master' } });
      expect(r.status, r.text).to.equal(201);
      r = await s.delete(`/projects/${p.id}/repository/branches/topic`, { token: owner.token });
      expect(r.status, r.text).to.equal(204);
      const list = await events(`/projects/${p.id}/events`, owner.token, { action: 'pushed', sort: 'asc' });
      expect(list.map((e) => [e.action_name, e.push_data.ref, e.push_data.commit_count, e.push_data.commit_title])).to.deep.equal([
        ['pushed new', 'master', 1, 'Add README'],
        ['pushed to', 'master', 1, 'Second file'],
        ['pushed new', 'topic', 0, null],
        ['deleted', 'topic', 0, null],
      ]);
    });
  });

  describe('lists and filters', () => {
    let p: { id: number; fullPath: string };
    const day = (d: string, t = '12:00:00.000') => `${d}T${t}Z`;

    before(async () => {
      p = await project('public');
      // Events at known times (all within the last year).
      const base = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
      for (const [i, t] of ['00:00:00.000', '12:00:00.000', '23:59:59.999'].entries()) {
        await recordEvent(s.db, { projectId: p.id, authorId: dev.user.id, action: i === 1 ? 'joined' : 'left', createdAt: day(base, t) });
      }
    });

    it("answers 401 to anonymous GET /events and lists the caller's own events", async () => {
      const r = await s.get('/events', { token: null });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
      const mine = await events('/events', dev.token);
      expect(mine.length).to.be.greaterThan(0);
      expect(mine.every((e) => e.author_id === dev.user.id)).to.equal(true);
    });

    it('finds users by id or username; an unknown one is "404 User Not Found"', async () => {
      const byId = await events(`/users/${dev.user.id}/events`, null);
      const byName = await events('/users/DEV/events', null);
      expect(byName).to.deep.equal(byId);
      const r = await s.get('/users/nobody-here/events');
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 User Not Found' });
      expect((await s.get('/users/999999/events')).body).to.deep.equal({ message: '404 User Not Found' });
    });

    it('checks the filters before it looks the user up, as GitLab 10.8 does', async () => {
      const r = await s.get('/users/nobody-here/events', { query: { sort: 'up' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'sort does not have a valid value' });
    });

    it('refuses unknown action, target_type, sort and malformed dates with Grape messages', async () => {
      const bad = async (query: Record<string, string>, error: string) => {
        const r = await s.get(`/projects/${p.id}/events`, { query });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ error });
      };
      await bad({ action: 'opened' }, 'action does not have a valid value');
      await bad({ target_type: 'Issue' }, 'target_type does not have a valid value');
      await bad({ target_type: 'wiki' }, 'target_type does not have a valid value');
      await bad({ sort: 'up' }, 'sort does not have a valid value');
      await bad({ before: 'yesterday' }, 'before is invalid');
      await bad({ after: '2018-02-30' }, 'after is invalid');
    });

    it('treats before and after as exclusive whole days (UTC)', async () => {
      const base = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
      const next = new Date(Date.parse(`${base}T00:00:00Z`) + 86400_000).toISOString().slice(0, 10);
      const prev = new Date(Date.parse(`${base}T00:00:00Z`) - 86400_000).toISOString().slice(0, 10);
      const onDay = (await events(`/users/${dev.user.id}/events`, owner.token, { after: prev, before: next })).filter((e) => e.project_id === p.id);
      expect(onDay.map((e) => e.created_at)).to.deep.equal([day(base, '23:59:59.999'), day(base, '12:00:00.000'), day(base, '00:00:00.000')]);
      expect(await events(`/projects/${p.id}/events`, owner.token, { after: base, before: next })).to.deep.equal([]);
      expect(await events(`/projects/${p.id}/events`, owner.token, { after: prev, before: base })).to.deep.equal([]);
      const later = await events(`/projects/${p.id}/events`, owner.token, { after: base });
      expect(later.map((e) => e.action_name)).to.deep.equal(['created']);
    });

    it('sorts by created_at (desc by default) and pages with GitLab headers', async () => {
      const desc = await events(`/projects/${p.id}/events`);
      const asc = await events(`/projects/${p.id}/events`, owner.token, { sort: 'asc' });
      expect(asc).to.deep.equal([...desc].reverse());
      expect(desc.map((e) => e.created_at)).to.deep.equal([...desc.map((e) => e.created_at)].sort().reverse());
      const r = await s.get(`/projects/${p.id}/events`, { query: { per_page: 2, page: 2 } });
      expect(r.headers.get('x-total')).to.equal('4');
      expect(r.headers.get('x-total-pages')).to.equal('2');
      expect(r.headers.get('x-prev-page')).to.equal('1');
      expect(r.body.map((e: any) => e.created_at)).to.deep.equal(desc.slice(2).map((e) => e.created_at));
      const joined = await events(`/projects/${p.id}/events`, owner.token, { action: 'joined' });
      expect(joined.map((e) => e.action_name)).to.deep.equal(['joined']);
    });
  });

  describe('visibility', () => {
    it('shows events of private projects to members only (404 for the project list)', async () => {
      const priv = await project('private');
      await addProjectMembers(s, priv.id, [[guest, GUEST]]);
      const pub = await project('public');
      for (const token of [null, stranger.token]) {
        const list = await events(`/users/${owner.user.id}/events`, token);
        expect(list.some((e) => e.project_id === priv.id)).to.equal(false);
        expect(list.some((e) => e.project_id === pub.id)).to.equal(true);
      }
      const r = await s.get(`/projects/${priv.id}/events`, { token: stranger.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
      expect((await events(`/projects/${priv.id}/events`, guest.token)).length).to.be.greaterThan(0);
      expect((await events(`/projects/${pub.id}/events`, null)).map((e) => e.action_name)).to.deep.equal(['created']);
    });

    it('hides events of confidential issues from those who cannot read them', async () => {
      const pub = await project('public');
      await addProjectMembers(s, pub.id, [
        [guest, GUEST],
        [reporter, REPORTER],
      ]);
      await s.post(`/projects/${pub.id}/issues`, { token: owner.token, json: { title: 'Secret', confidential: true } });
      await s.post(`/projects/${pub.id}/issues`, { token: owner.token, json: { title: 'Open' } });
      await s.post(`/projects/${pub.id}/issues`, { token: guest.token, json: { title: 'Guest secret', confidential: true } });
      const titles = async (token: string | null) => (await events(`/projects/${pub.id}/events`, token, { target_type: 'issue' })).map((e) => e.target_title);
      expect(await titles(null)).to.deep.equal(['Open']);
      expect(await titles(stranger.token)).to.deep.equal(['Open']);
      expect(await titles(guest.token)).to.deep.equal(['Guest secret', 'Open']);
      expect(await titles(reporter.token)).to.deep.equal(['Guest secret', 'Open', 'Secret']);
      expect(await titles(ROOT_TOKEN)).to.deep.equal(['Guest secret', 'Open', 'Secret']);
    });

    it('hides merge requests of private projects, and comments on them, from guests', async () => {
      const priv = await project('private');
      await addProjectMembers(s, priv.id, [
        [guest, GUEST],
        [reporter, REPORTER],
      ]);
      const file = (branch: string, name: string) =>
        s.post(`/projects/${priv.id}/repository/files/${name}`, { token: owner.token, json: { branch, content: name, commit_message: `Add ${name}` } });
      expect((await file('master', 'a.txt')).status).to.equal(201);
      expect((await s.post(`/projects/${priv.id}/repository/branches`, { token: owner.token, json: { branch: 'feat', ref: 'master' } })).status).to.equal(201);
      expect((await file('feat', 'b.txt')).status).to.equal(201);
      const mr = await s.post(`/projects/${priv.id}/merge_requests`, { token: owner.token, json: { title: 'Feature', source_branch: 'feat', target_branch: 'master' } });
      expect(mr.status, mr.text).to.equal(201);
      const note = await s.post(`/projects/${priv.id}/merge_requests/${mr.body.iid}/notes`, { token: owner.token, json: { body: 'self review' } });
      expect(note.status, note.text).to.equal(201);
      const seen = async (token: string) => (await events(`/projects/${priv.id}/events`, token, { sort: 'asc' })).map((e) => `${e.action_name} ${e.target_type}`);
      expect(await seen(guest.token)).to.deep.equal(['created null']);
      expect(await seen(reporter.token)).to.deep.equal(['created null', 'pushed new null', 'pushed new null', 'pushed to null', 'opened MergeRequest', 'commented on Note']);
    });

    it('hides pushes of private projects from guests (no code access)', async () => {
      const priv = await project('private');
      await addProjectMembers(s, priv.id, [
        [guest, GUEST],
        [reporter, REPORTER],
      ]);
      await s.post(`/projects/${priv.id}/repository/files/a.txt`, { token: owner.token, json: { branch: 'master', content: 'a', commit_message: 'A' } });
      const actions = async (token: string) => (await events(`/projects/${priv.id}/events`, token)).map((e) => e.action_name);
      expect(await actions(guest.token)).to.deep.equal(['created']);
      expect(await actions(reporter.token)).to.deep.equal(['pushed new', 'created']);
    });
  });

  describe('retention', () => {
    it('never lists events older than a year, and the daily job deletes them', async () => {
      const p = await project('public');
      const old = new Date(Date.now() - 366 * 86400_000).toISOString();
      const young = new Date(Date.now() - 300 * 86400_000).toISOString();
      const oldId = await recordEvent(s.db, { projectId: p.id, authorId: owner.user.id, action: 'pushed', createdAt: old });
      await s.db('push_event_payloads').insert({ event_id: oldId, commit_count: 1, action: 'pushed', ref_type: 'branch', commit_from: null, commit_to: null, ref: 'x' });
      await recordEvent(s.db, { projectId: p.id, authorId: owner.user.id, action: 'joined', createdAt: young });
      const listed = await events(`/projects/${p.id}/events`);
      expect(listed.map((e) => e.action_name)).to.deep.equal(['created', 'joined']);

      const job = await s.deps.jobs.perform(PRUNE_OLD_EVENTS, {});
      expect(job.state).to.equal('succeeded');
      expect(job.result).to.be.at.least(1);
      expect(await s.db('events').where({ id: oldId }).first()).to.equal(undefined);
      expect(await s.db('push_event_payloads').where({ event_id: oldId }).first()).to.equal(undefined);
      expect((await s.db('events').where({ project_id: p.id })).length).to.equal(2);
      expect(await events(`/projects/${p.id}/events`)).to.deep.equal(listed);
    });
  });
});
