// The notifier (services/notify.ts): one announcement reaches every subscriber, each of which
// writes its rows in the announcing transaction, so that a rolled-back change leaves none of
// them. One case per subscriber: the activity feed, to-dos, project hooks, system hooks, the
// merges waiting for a pipeline, and the metrics (counted only when the change commits).
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { announce } from '../../src/services/notify.js';
import type { DomainEvent } from '../../src/services/domain_events.js';
import { metricsText } from '../../src/services/metrics/metrics.js';
import type { UserRow } from '../../src/store/rows.js';

describe('the notifier and its subscribers', function () {
  this.timeout(60_000);
  let s: TestServer;
  let author: { user: UserRow; token: string };
  let assignee: { user: UserRow; token: string };
  let project: { id: number };
  let issue: { id: number; iid: number; title: string; description: string | null };

  before(async () => {
    s = await bootServer();
    author = await s.createUser('announcer');
    assignee = await s.createUser('assigned-one');
    const r = await s.post('/projects', { json: { name: 'notified' }, token: author.token });
    project = r.body;
    await s.post(`/projects/${project.id}/members`, { json: { user_id: assignee.user.id, access_level: 30 }, token: author.token });
    issue = (await s.post(`/projects/${project.id}/issues`, { json: { title: 'Subject' }, token: author.token })).body;
    const settings = await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } });
    expect(settings.status, settings.text).to.equal(200);
  });
  after(async () => s.close());

  const opened = (): DomainEvent => ({
    name: 'issuableOpened',
    target: { type: 'Issue', id: issue.id, projectId: project.id },
    actor: author.user,
    assigneeIds: [assignee.user.id],
    title: issue.title,
    description: 'cc @assigned-one',
  });

  /** Announces in a transaction that commits, or (rollback) one that fails afterwards. */
  async function announced(event: DomainEvent, rollback = false): Promise<void> {
    const failure = new Error('the change failed after its announcement');
    try {
      await s.db.transaction(async (tx) => {
        await announce(tx, event);
        if (rollback) throw failure;
      });
    } catch (err) {
      if (err !== failure) throw err;
    }
  }

  const count = async (table: string, where: Record<string, unknown>) => Number((await s.db(table).where(where).count({ n: '*' }).first())?.n ?? 0);
  const hookJobs = async (hookName: string) =>
    (await s.db('jobs').where({ kind: 'web_hook' }).select('payload')).map((j: { payload: string }) => JSON.parse(j.payload)).filter((p) => p.hookName === hookName);

  it('activity feed: an event of the target, written with the change and gone with its rollback', async () => {
    const where = { project_id: project.id, target_type: 'Issue', target_id: issue.id, author_id: author.user.id };
    const before = await count('events', where);
    await announced(opened(), true);
    expect(await count('events', where)).to.equal(before);
    await announced(opened());
    expect(await count('events', where)).to.equal(before + 1);
  });

  it('to-dos: the assignee gets an `assigned` to-do; none after a rollback', async () => {
    await s.db('todos').where({ user_id: assignee.user.id }).delete();
    await announced(opened(), true);
    expect(await count('todos', { user_id: assignee.user.id })).to.equal(0);
    await announced(opened());
    const todos = await s.db('todos').where({ user_id: assignee.user.id, target_id: issue.id, state: 'pending' });
    expect(todos).to.have.length(1);
    await announced({ name: 'issuableTouched', target: { type: 'Issue', id: issue.id, projectId: project.id }, actorId: assignee.user.id });
    expect(await count('todos', { user_id: assignee.user.id, state: 'pending' })).to.equal(0);
  });

  it("project hooks: a delivery to the project's issue hooks, only when the change commits", async () => {
    const hook = await s.post(`/projects/${project.id}/hooks`, { json: { url: 'http://127.0.0.1:9/issues', issues_events: true }, token: author.token });
    expect(hook.status, hook.text).to.equal(201);
    const before = (await hookJobs('issue_hooks')).length;
    await announced(opened(), true);
    expect(await hookJobs('issue_hooks')).to.have.length(before);
    await announced(opened());
    const jobs = await hookJobs('issue_hooks');
    expect(jobs).to.have.length(before + 1);
    expect(jobs[jobs.length - 1].event).to.include({ kind: 'issue', action: 'open', projectId: project.id });
  });

  it('system hooks: a user created is a system event', async () => {
    const hook = await s.post('/hooks', { json: { url: 'http://127.0.0.1:9/system' } });
    expect(hook.status, hook.text).to.equal(201);
    const before = (await hookJobs('system_hooks')).length;
    await announced({ name: 'userCreated', user: assignee.user }, true);
    expect(await hookJobs('system_hooks')).to.have.length(before);
    await announced({ name: 'userCreated', user: assignee.user });
    const jobs = await hookJobs('system_hooks');
    expect(jobs).to.have.length(before + 1);
    expect(JSON.stringify(jobs[jobs.length - 1].event)).to.contain('user_create');
  });

  it('merges waiting for a pipeline: a pipeline that succeeds queues them; one that fails does not', async () => {
    const pipeline = { id: 987654, project_id: project.id, status: 'success' } as unknown as Extract<DomainEvent, { name: 'pipelineStatusChanged' }>['pipeline'];
    const queued = () => count('jobs', { kind: 'pipeline_success' });
    const before = await queued();
    await announced({ name: 'pipelineStatusChanged', pipeline: { ...pipeline, status: 'failed' }, from: 'running' });
    await announced({ name: 'pipelineStatusChanged', pipeline, from: 'running' }, true);
    expect(await queued()).to.equal(before);
    await announced({ name: 'pipelineStatusChanged', pipeline, from: 'running' });
    expect(await queued()).to.equal(before + 1);
  });

  it('metrics: wharf_domain_events_total counts committed announcements only', async () => {
    const value = async () => {
      const { body } = await metricsText();
      const line = body.split('\n').find((l) => l.startsWith('wharf_domain_events_total{event="milestoneCreated"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const milestone = (await s.post(`/projects/${project.id}/milestones`, { json: { title: 'm1' }, token: author.token })).body;
    const before = await value();
    const event: DomainEvent = { name: 'milestoneCreated', projectId: project.id, milestoneId: milestone.id, actorId: author.user.id, at: new Date().toISOString() };
    await announced(event, true);
    expect(await value()).to.equal(before);
    await announced(event);
    expect(await value()).to.equal(before + 1);
  });
});
