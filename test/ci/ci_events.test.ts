// What follows CI status changes (GitLab 10.8): pipeline and job webhooks delivered to a real
// receiver in 10.8's shapes (Pipeline Hook on every pipeline status change, Job Hook when a
// job is created, starts running and finishes; none for an external status), build_failed
// to-dos for the merge request's author and waiting merge user, done again when the job or
// the pipeline is retried, and the `retry:` keyword retrying a failing job by itself.
// Pipelines come from real .gitlab-ci.yml commits; their jobs are moved as a runner would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { projectWithRoles, type Account } from '../helpers/roles.js';
import { openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';

interface Project {
  id: number;
  path: string;
  dir: string;
}

/** Collects the JSON bodies posted to it, with their X-Gitlab-Event. */
class Receiver {
  readonly received: { event: string; body: any }[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ event: String(req.headers['x-gitlab-event']), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end('ok');
    });
  });
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  of(event: string): any[] {
    return this.received.filter((r) => r.event === event).map((r) => r.body);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('CI events: hooks, build_failed to-dos, retry:', function () {
  this.timeout(60000);
  let s: TestServer;
  let owner: Account;
  let dev: Account;
  let lead: Account;
  let rx: Receiver;

  before(async () => {
    rx = await new Receiver().start();
    s = await bootServer();
    owner = await s.createUser('olga');
    dev = await s.createUser('dana');
    lead = await s.createUser('leo');
    const r = await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } });
    expect(r.status, r.text).to.equal(200);
  });
  after(async () => {
    await s.close();
    await rx.stop();
  });

  let counter = 0;
  async function project(ci: string): Promise<Project> {
    const r = await projectWithRoles(s, owner, { master: lead, dev }, { name: `cievents${++counter}`, visibility: 'private' });
    const p = { id: r.id, path: r.path_with_namespace, dir: repoDir(s, r.path_with_namespace) };
    await writeFiles(s, p, 'master', { 'README.md': 'hello\n', '.gitlab-ci.yml': ci }, { message: 'Initial', token: owner.token });
    await s.drainJobs();
    return p;
  }

  async function latestPipeline(p: Project, ref: string): Promise<any> {
    const list = (await s.get(`/projects/${p.id}/pipelines?ref=${ref}`, { token: owner.token })).body;
    return list[0];
  }

  const jobsOf = async (p: Project, pipelineId: number): Promise<any[]> =>
    (await s.get(`/projects/${p.id}/pipelines/${pipelineId}/jobs`, { token: owner.token })).body.sort((a: any, b: any) => a.id - b.id);

  /** Moves the named pending job as a runner would: running, then `to`. */
  async function run(pipelineId: number, name: string, to: 'success' | 'failed'): Promise<void> {
    const build = await s.db('ci_builds').where({ pipeline_id: pipelineId, name, status: 'pending' }).first();
    expect(build, `${name} pending`).to.not.equal(undefined);
    expect(await transitionBuild(s.db, build.id, 'running')).to.not.equal(null);
    expect(await transitionBuild(s.db, build.id, to)).to.not.equal(null);
  }

  const todosOf = async (a: Account, state = 'pending') => (await s.get('/todos', { token: a.token, query: { state } })).body as any[];

  it('delivers Pipeline Hook and Job Hook events in 10.8 shapes; an external status gives no job event', async () => {
    const p = await project('stages: [build, test]\nbuild:\n  stage: build\n  script: echo b\nlint:\n  stage: test\n  script: exit 1\n  allow_failure: true\n');
    const hook = await s.post(`/projects/${p.id}/hooks`, { token: owner.token, json: { url: rx.url, push_events: false, pipeline_events: true, job_events: true } });
    expect(hook.status, hook.text).to.equal(201);
    const sha = await writeFiles(s, p, 'master', { 'a.txt': 'a\n' }, { message: 'Add a', token: owner.token });
    await s.drainJobs();
    const pipeline = await latestPipeline(p, 'master');
    await run(pipeline.id, 'build', 'success');
    await run(pipeline.id, 'lint', 'failed');
    await s.drainJobs();

    const pipelines = rx.of('Pipeline Hook').filter((b) => b.object_attributes.id === pipeline.id);
    expect(pipelines.map((b) => b.object_attributes.status)).to.deep.equal(['pending', 'running', 'success']);
    const last = pipelines[2];
    expect(last.object_kind).to.equal('pipeline');
    expect(last.object_attributes).to.include({ ref: 'master', tag: false, sha, detailed_status: 'passed with warnings' });
    expect(last.object_attributes.stages).to.deep.equal(['build', 'test']);
    expect(last.object_attributes.finished_at).to.be.a('string');
    expect(last.user).to.deep.equal({ name: owner.user.name, username: 'olga', avatar_url: last.user.avatar_url });
    expect(last.project).to.include({ id: p.id, path_with_namespace: p.path });
    expect(last.project).to.not.have.property('homepage');
    expect(last.commit).to.include({ id: sha, message: 'Add a' });
    expect(last.builds.map((b: any) => [b.name, b.stage, b.status, b.manual])).to.deep.equal([
      ['build', 'build', 'success', false],
      ['lint', 'test', 'failed', false],
    ]);
    expect(last.builds[0].artifacts_file).to.deep.equal({ filename: null, size: null });
    expect(pipelines[0].object_attributes.detailed_status).to.equal('pending');

    const jobs = rx.of('Job Hook').filter((b) => b.sha === sha);
    const build = jobs.filter((b) => b.build_name === 'build');
    expect(build.map((b) => b.build_status)).to.deep.equal(['created', 'running', 'success']);
    const done = build[2];
    expect(done).to.include({ object_kind: 'build', ref: 'master', tag: false, build_stage: 'build', build_allow_failure: false, project_id: p.id });
    expect(done.before_sha).to.be.a('string');
    expect(done.build_duration).to.be.a('number');
    expect(done.project_name).to.equal(`olga / ${p.path.split('/')[1]}`);
    expect(done.user).to.deep.equal({ id: owner.user.id, name: owner.user.name, email: owner.user.email });
    expect(done.commit).to.include({ id: pipeline.id, sha, message: 'Add a\n', status: 'success' });
    expect(done.repository).to.include({ name: p.path.split('/')[1], visibility_level: 0 });
    expect(done.repository.git_http_url).to.match(/\.git$/);
    expect(jobs.filter((b) => b.build_name === 'lint').map((b) => b.build_status)).to.deep.equal(['created', 'running', 'failed']);

    // An external CI's status counts in a pipeline but sends no job event.
    const before = rx.of('Job Hook').length;
    const status = await s.post(`/projects/${p.id}/statuses/${sha}`, { token: owner.token, json: { state: 'failed', name: 'external' } });
    expect(status.status, status.text).to.equal(201);
    await s.drainJobs();
    expect(rx.of('Job Hook').length).to.equal(before);
    // It does move the pipeline, which sends its Pipeline Hook.
    expect(
      rx
        .of('Pipeline Hook')
        .filter((b) => b.object_attributes.id === pipeline.id)
        .map((b) => b.object_attributes.status),
    ).to.deep.equal(['pending', 'running', 'success', 'failed']);
  });

  it("gives the merge request's author and waiting merge user a build_failed to-do; a retried job marks them done", async () => {
    const p = await project('test:\n  script: echo ok\n');
    await writeFiles(s, p, 'feature', { 'f.txt': 'f\n' }, { message: 'Feature', start: 'master', token: owner.token });
    await s.drainJobs();
    const mr = await openMergeRequest(s, p.id, { source_branch: 'feature', target_branch: 'master', title: 'Feature' }, dev.token);
    const waiting = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}/merge`, { token: lead.token, json: { merge_when_pipeline_succeeds: true } });
    expect(waiting.status, waiting.text).to.equal(200);
    const pipeline = await latestPipeline(p, 'feature');
    await run(pipeline.id, 'test', 'failed');

    for (const who of [dev, lead]) {
      const todos = await todosOf(who);
      expect(todos.map((t) => [t.action_name, t.target_type, t.target.iid, t.author.username])).to.deep.equal([['build_failed', 'MergeRequest', mr.iid, who.user.username]]);
    }
    expect(await todosOf(owner)).to.deep.equal([]);

    // A failing job of master (no merge request's head) gives nobody a to-do.
    const master = await latestPipeline(p, 'master');
    await run(master.id, 'test', 'failed');
    expect((await todosOf(dev)).length).to.equal(1);

    const [job] = await jobsOf(p, pipeline.id);
    const retried = await s.post(`/projects/${p.id}/jobs/${job.id}/retry`, { token: lead.token });
    expect(retried.status, retried.text).to.equal(201);
    expect(await todosOf(dev)).to.deep.equal([]);
    expect(await todosOf(lead)).to.deep.equal([]);
    expect((await todosOf(dev, 'done')).map((t) => t.action_name)).to.deep.equal(['build_failed']);
  });

  it('a retried pipeline marks the build_failed to-dos done; a job allowed to fail gives none', async () => {
    const p = await project('test:\n  script: echo ok\nlint:\n  script: exit 1\n  allow_failure: true\n');
    await writeFiles(s, p, 'topic', { 't.txt': 't\n' }, { message: 'Topic', start: 'master', token: owner.token });
    await s.drainJobs();
    const mr = await openMergeRequest(s, p.id, { source_branch: 'topic', target_branch: 'master', title: 'Topic' }, dev.token);
    const pipeline = await latestPipeline(p, 'topic');
    await run(pipeline.id, 'lint', 'failed');
    expect(await todosOf(dev)).to.deep.equal([]);
    await run(pipeline.id, 'test', 'failed');
    expect((await todosOf(dev)).map((t) => [t.action_name, t.target.iid])).to.deep.equal([['build_failed', mr.iid]]);

    const retried = await s.post(`/projects/${p.id}/pipelines/${pipeline.id}/retry`, { token: lead.token });
    expect(retried.status, retried.text).to.equal(201);
    expect(await todosOf(dev)).to.deep.equal([]);
  });

  it('retry: N retries a failing job by itself, N times at most, without a to-do for the failed tries', async () => {
    const p = await project('flaky:\n  script: exit 1\n  retry: 2\n');
    await writeFiles(s, p, 'branch', { 'b.txt': 'b\n' }, { message: 'Branch', start: 'master', token: owner.token });
    await s.drainJobs();
    await openMergeRequest(s, p.id, { source_branch: 'branch', target_branch: 'master', title: 'Branch' }, dev.token);
    const pipeline = await latestPipeline(p, 'branch');

    await run(pipeline.id, 'flaky', 'failed');
    let jobs = await jobsOf(p, pipeline.id);
    expect(jobs.map((j) => j.status)).to.deep.equal(['failed', 'pending']);
    expect((await s.get(`/projects/${p.id}/pipelines/${pipeline.id}`, { token: owner.token })).body.status).to.equal('pending');
    expect(await todosOf(dev)).to.deep.equal([]);

    await run(pipeline.id, 'flaky', 'failed');
    await run(pipeline.id, 'flaky', 'failed');
    jobs = await jobsOf(p, pipeline.id);
    expect(jobs.map((j) => j.status)).to.deep.equal(['failed', 'failed', 'failed']);
    expect((await s.get(`/projects/${p.id}/pipelines/${pipeline.id}`, { token: owner.token })).body.status).to.equal('failed');
    expect((await todosOf(dev)).map((t) => t.action_name)).to.deep.equal(['build_failed']);

    // A retry that passes ends the pipeline in success.
    const ok = await project('flaky:\n  script: exit 1\n  retry: 1\n');
    const okPipeline = await latestPipeline(ok, 'master');
    await run(okPipeline.id, 'flaky', 'failed');
    await run(okPipeline.id, 'flaky', 'success');
    expect((await s.get(`/projects/${ok.id}/pipelines/${okPipeline.id}`, { token: owner.token })).body.status).to.equal('success');
  });

  it("retry: retries no more once the job's user may not update jobs of the project", async () => {
    const p = await project('flaky:\n  script: exit 1\n  retry: 2\n');
    await writeFiles(s, p, 'dana-branch', { 'd.txt': 'd\n' }, { message: 'By dana', start: 'master', token: dev.token });
    await s.drainJobs();
    const pipeline = await latestPipeline(p, 'dana-branch');
    const removed = await s.delete(`/projects/${p.id}/members/${dev.user.id}`, { token: owner.token });
    expect(removed.status, removed.text).to.equal(204);
    await run(pipeline.id, 'flaky', 'failed');
    expect((await jobsOf(p, pipeline.id)).map((j) => j.status)).to.deep.equal(['failed']);
    expect((await s.get(`/projects/${p.id}/pipelines/${pipeline.id}`, { token: owner.token })).body.status).to.equal('failed');
  });
});
