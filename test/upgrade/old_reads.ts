// What the API must answer about the rows an early Wharf wrote (old_rows.ts, old_issuables.ts)
// once today's Wharf has migrated them: the same users, projects, members, issues and the rest
// as GitLab 10.8 renders them, permissions included (a private project is 404 to a
// non-member), and new rows that carry on from the old ones (ids, iids, counters).
import { expect } from 'chai';
import type { Reply, TestServer } from '../helpers/server.js';
import { at, type OldWorld } from './old_rows.js';

function ok<T = any>(r: Reply<T>, status = 200): T {
  expect(r.status, r.text).to.equal(status);
  return r.body;
}

export async function expectFoundationRead(s: TestServer, world: OldWorld): Promise<void> {
  const { tokens, ids } = world;
  const me = ok(await s.get('/user', { token: tokens.alice }));
  expect(me).to.include({ id: ids.alice, username: 'alice', email: 'alice@example.com', name: 'Alice', created_at: at(1) });

  const app = ok(await s.get(`/projects/${ids.app}`, { token: tokens.alice }));
  expect(app).to.include({ name: 'App', path_with_namespace: 'platform/app', visibility: 'private', description: 'The App project', star_count: 1 });
  expect(app).to.include({ default_branch: 'master', created_at: at(5), creator_id: ids.alice });
  expect(app.tag_list).to.have.members(['a', 'b']);
  expect(app.namespace).to.include({ id: ids.group, kind: 'group', full_path: 'platform' });

  const hidden = await s.get(`/projects/${ids.app}`, { token: tokens.bob });
  expect(hidden.status).to.equal(404);
  expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
  ok(await s.get(`/projects/${ids.app}`, { token: tokens.carol }));

  const members = ok(await s.get(`/projects/${ids.app}/members`, { token: tokens.alice }));
  expect(members.map((m: any) => [m.username, m.access_level, m.expires_at])).to.deep.equal([['carol', 30, '2099-01-01']]);
  const owners = ok(await s.get(`/groups/${ids.group}/members`, { token: tokens.alice }));
  expect(owners.map((m: any) => [m.username, m.access_level])).to.deep.equal([['alice', 50]]);

  const notes = ok(await s.get(`/projects/${ids.notes}`, { token: tokens.bob }));
  expect(notes.shared_with_groups).to.deep.equal([{ group_id: ids.group, group_name: 'Platform', group_access_level: 30 }]);
  const starred = ok(await s.get('/projects', { token: tokens.carol, query: { starred: true } }));
  expect(starred.map((p: any) => p.id)).to.deep.equal([ids.app]);

  const attributes = ok(await s.get(`/projects/${ids.app}/custom_attributes`, { token: tokens.root }));
  expect(attributes).to.deep.equal([{ key: 'tier', value: 'gold' }]);
  const withStats = ok(await s.get(`/projects/${ids.app}`, { token: tokens.root, query: { statistics: true } }));
  expect(withStats.statistics).to.include({ commit_count: 1, repository_size: 2048 });
}

export async function expectFirstDayRead(s: TestServer, world: OldWorld): Promise<void> {
  const { tokens, ids } = world;
  const base = `/projects/${ids.app}`;
  const issues = ok(await s.get(`${base}/issues`, { token: tokens.alice }));
  expect(issues.map((i: any) => i.iid)).to.deep.equal([2, 1]);
  const [docs, crash] = issues;
  expect(crash).to.include({ id: ids.crash, title: 'The app crashes on start', state: 'opened', user_notes_count: 1, upvotes: 1, created_at: at(13) });
  expect(crash.labels).to.deep.equal(['bug']);
  expect(crash.assignees.map((u: any) => u.username)).to.deep.equal(['alice']);
  expect(crash.author.username).to.equal('carol');
  expect(crash.milestone).to.include({ id: ids.v1, iid: 1, title: 'v1', due_date: '2030-01-01' });
  expect(docs).to.include({ state: 'closed', confidential: true, closed_at: at(15) });
  expect(docs.closed_by.username).to.equal('alice');
  expect((await s.get(`${base}/issues`, { token: tokens.bob })).status).to.equal(404);

  const found = ok(await s.get(`${base}/issues`, { token: tokens.alice, query: { search: 'crashes' } }));
  expect(found.map((i: any) => i.iid)).to.deep.equal([1]);
  const issueNotes = ok(await s.get(`${base}/issues/1/notes`, { token: tokens.alice }));
  expect(issueNotes.map((n: any) => [n.body, n.author.username, n.created_at])).to.deep.equal([['Confirmed on v1', 'alice', at(17)]]);
  const awards = ok(await s.get(`${base}/issues/1/award_emoji`, { token: tokens.alice }));
  expect(awards.map((a: any) => [a.name, a.user.username])).to.deep.equal([['thumbsup', 'carol']]);

  const mrs = ok(await s.get(`${base}/merge_requests`, { token: tokens.alice }));
  expect(mrs).to.have.length(1);
  expect(mrs[0]).to.include({ iid: 1, title: 'Fix the crash', source_branch: 'feature', target_branch: 'master', state: 'opened', sha: world.shas.feature });
  expect(mrs[0].labels).to.deep.equal(['feature']);
  expect(mrs[0].assignee.username).to.equal('alice');
  const mrNotes = ok(await s.get(`${base}/merge_requests/1/notes`, { token: tokens.alice }));
  expect(mrNotes.map((n: any) => n.body)).to.deep.equal(['Looks good']);

  const labels = ok(await s.get(`${base}/labels`, { token: tokens.alice }));
  expect(labels.map((l: any) => [l.name, l.color, l.open_issues_count, l.open_merge_requests_count])).to.deep.equal([
    ['bug', '#ff0000', 1, 0],
    ['feature', '#00ff00', 0, 1],
  ]);
  const milestones = ok(await s.get(`${base}/milestones`, { token: tokens.alice }));
  expect(milestones.map((m: any) => [m.iid, m.title, m.state])).to.deep.equal([[1, 'v1', 'active']]);
  const branches = ok(await s.get(`${base}/protected_branches`, { token: tokens.alice }));
  expect(branches.map((b: any) => b.name)).to.deep.equal(['master']);

  const events = ok(await s.get(`${base}/events`, { token: tokens.alice }));
  expect(events.map((e: any) => e.action_name)).to.deep.equal(['commented on', 'opened', 'closed', 'opened', 'opened', 'pushed to', 'created']);
  expect(events.find((e: any) => e.action_name === 'pushed to').push_data).to.include({ ref: 'master', commit_to: world.shas.master, commit_count: 1 });
  const todos = ok(await s.get('/todos', { token: tokens.alice }));
  expect(todos.map((t: any) => [t.action_name, t.target_type, t.target.iid, t.state])).to.deep.equal([['mentioned', 'Issue', 1, 'pending']]);
}

/** New rows after the old ones: a user (ids), an issue (iids), a note (the notes counter). */
export async function expectWritesCarryOn(s: TestServer, world: OldWorld, nextIssueIid: number): Promise<void> {
  const { tokens, ids } = world;
  const dave = ok(await s.post('/users', { token: tokens.root, json: { username: 'dave', email: 'dave@example.com', name: 'Dave', password: 'dave-secret-123' } }), 201);
  expect(dave.id).to.be.greaterThan(ids.carol);
  const issue = ok(await s.post(`/projects/${ids.app}/issues`, { token: tokens.carol, json: { title: 'After the upgrade' } }), 201);
  expect(issue.iid).to.equal(nextIssueIid);
  ok(await s.post(`/projects/${ids.app}/issues/${issue.iid}/notes`, { token: tokens.alice, json: { body: 'Still here' } }), 201);
  const read = ok(await s.get(`/projects/${ids.app}/issues/${issue.iid}`, { token: tokens.alice }));
  expect(read.user_notes_count).to.equal(1);
}
