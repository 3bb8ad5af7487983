// GitLab 10.8's job endpoints (lib/api/jobs.rb, job_artifacts.rb) with no runner: jobs wait in
// `pending` and the tests move them with transitionBuild. Each endpoint's statuses and bodies:
// the Job entity (JobBasic + runner; artifacts_file when there are some), trace as text/plain, cancel/retry (201), play (200; 400
// `Unplayable Job`), 403 `Job is not retryable`, artifacts 404s, permissions and missing jobs.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { addRoleMembers } from '../helpers/roles.js';
import crypto from 'node:crypto';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';
import { claimNextBuild } from '../../src/services/ci/runner/pickup.js';
import { parseCoverage } from '../../src/services/ci/runner/coverage.js';

const CI = `stages: [build, deploy]
build:
  stage: build
  script: make
deploy:
  stage: deploy
  script: ./deploy
  when: manual
`;

describe('API jobs', function () {
  this.timeout(60_000);
  let s: TestServer;
  let project: any;
  let priv: any;
  let guest: { token: string };
  let reporter: { token: string };
  let stranger: { token: string };
  let pipelineId: number;
  const byName = async (name: string) => ((await s.get(`/projects/${project.id}/pipelines/${pipelineId}/jobs`)).body as any[]).find((j) => j.name === name);

  before(async () => {
    s = await bootServer();
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-jobs', visibility: 'public' });
    priv = await createProject(s, ROOT_TOKEN, { name: 'ci-jobs-private', visibility: 'private' });
    const g = await s.createUser('jobguest');
    const r = await s.createUser('jobreporter');
    stranger = await s.createUser('jobstranger');
    guest = g;
    reporter = r;
    await addRoleMembers(s, project.id, { guest: { user: g.user, token: g.token }, reporter: { user: r.user, token: r.token } } as any);
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }], { token: ROOT_TOKEN });
    await s.drainJobs();
    pipelineId = (await s.get(`/projects/${project.id}/pipelines`)).body[0].id;
  });
  after(() => s.close());

  it('GET /projects/:id/jobs/:job_id answers the Job entity, 404 for a missing job or a private project', async () => {
    const build = await byName('build');
    const r = await s.get(`/projects/${project.id}/jobs/${build.id}`, { token: reporter.token });
    expect(r.status).to.equal(200);
    // (The reference's job.json is the web UI's job, not the API's: the keys are checked here.)
    expect(Object.keys(r.body)).to.have.members([
      'id',
      'status',
      'stage',
      'name',
      'ref',
      'tag',
      'coverage',
      'created_at',
      'started_at',
      'finished_at',
      'duration',
      'user',
      'commit',
      'pipeline',
      'runner',
    ]);
    expect(r.body).to.include({ id: build.id, status: 'pending', name: 'build', stage: 'build', runner: null });
    expect(r.body).not.to.have.property('artifacts_file');
    const missing = await s.get(`/projects/${project.id}/jobs/999999`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 Not found' });
    const other = await s.get(`/projects/${priv.id}/jobs/${build.id}`);
    expect(other.status, 'a job of another project').to.equal(404);
    expect(other.body).to.deep.equal({ message: '404 Not found' });
    const hidden = await s.get(`/projects/${priv.id}/jobs/${build.id}`, { token: stranger.token });
    expect(hidden.status).to.equal(404);
    expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
    const bad = await s.get(`/projects/${project.id}/jobs/abc`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ error: 'job_id is invalid' });
  });

  it('GET .../trace answers text/plain (empty before the job ran) and 404 for a missing job', async () => {
    const build = await byName('build');
    const r = await s.get(`/projects/${project.id}/jobs/${build.id}/trace`);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain/);
    expect(r.text).to.equal('');
    const missing = await s.get(`/projects/${project.id}/jobs/999999/trace`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 Not found' });
  });

  it('retry: 403 while the job is not finished, 401 anonymous, 403 for a reporter; 201 and a new pending job after it failed', async () => {
    const build = await byName('build');
    const early = await s.post(`/projects/${project.id}/jobs/${build.id}/retry`);
    expect(early.status).to.equal(403);
    expect(early.body).to.deep.equal({ message: '403 Forbidden - Job is not retryable' });
    const anon = await s.post(`/projects/${project.id}/jobs/${build.id}/retry`, { token: null });
    expect(anon.status).to.equal(401);
    expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
    const rep = await s.post(`/projects/${project.id}/jobs/${build.id}/retry`, { token: reporter.token });
    expect(rep.status).to.equal(403);
    expect(rep.body).to.deep.equal({ message: '403 Forbidden' });
    await transitionBuild(s.db, build.id, 'running');
    await transitionBuild(s.db, build.id, 'failed');
    expect((await byName('deploy')).status).to.equal('skipped');
    const r = await s.post(`/projects/${project.id}/jobs/${build.id}/retry`);
    expect(r.status).to.equal(201);
    expect(r.body.id).to.not.equal(build.id);
    expect(r.body).to.include({ name: 'build', status: 'pending' });
    expect((await byName('deploy')).status, 'later skipped jobs wait again').to.equal('created');
  });

  it('play: 400 Unplayable Job for a job that is not manual; a manual job goes pending (200)', async () => {
    const build = await byName('build');
    const unplayable = await s.post(`/projects/${project.id}/jobs/${build.id}/play`);
    expect(unplayable.status).to.equal(400);
    expect(unplayable.body).to.deep.equal({ message: '400 (Bad request) "Unplayable Job" not given' });
    await transitionBuild(s.db, build.id, 'running');
    await transitionBuild(s.db, build.id, 'success');
    const deploy = await byName('deploy');
    expect(deploy.status).to.equal('manual');
    const guestPlay = await s.post(`/projects/${project.id}/jobs/${deploy.id}/play`, { token: guest.token });
    expect(guestPlay.status).to.equal(403);
    const r = await s.post(`/projects/${project.id}/jobs/${deploy.id}/play`);
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ id: deploy.id, status: 'pending' });
  });

  it('cancel: 201 with the canceled job; a finished job is left as it is', async () => {
    const deploy = await byName('deploy');
    const r = await s.post(`/projects/${project.id}/jobs/${deploy.id}/cancel`);
    expect(r.status).to.equal(201);
    expect(r.body.status).to.equal('canceled');
    const again = await s.post(`/projects/${project.id}/jobs/${deploy.id}/cancel`);
    expect(again.status).to.equal(201);
    expect(again.body.status).to.equal('canceled');
    const missing = await s.post(`/projects/${project.id}/jobs/999999/cancel`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 Not found' });
  });

  it('artifacts: 404 when a job has none, by ref when no successful job has that name, 400 without job', async () => {
    const build = await byName('build');
    const none = await s.get(`/projects/${project.id}/jobs/${build.id}/artifacts`);
    expect(none.status).to.equal(404);
    expect(none.body).to.deep.equal({ message: '404 Not Found' });
    const byRef = await s.get(`/projects/${project.id}/jobs/artifacts/master/download`, { query: { job: 'nope' } });
    expect(byRef.status).to.equal(404);
    expect(byRef.body).to.deep.equal({ message: '404 Not found' });
    const noJob = await s.get(`/projects/${project.id}/jobs/artifacts/master/download`);
    expect(noJob.status).to.equal(400);
    expect(noJob.body).to.deep.equal({ error: 'job is missing' });
  });

  it('pickup: of claimers racing for one pending job exactly one wins, with a token stored as its digest', async () => {
    const sha = await commitFiles(s, project.id, 'master', [{ action: 'update', file_path: '.gitlab-ci.yml', content: 'only:\n  script: echo one\n' }], { token: ROOT_TOKEN });
    await s.drainJobs();
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`, { query: { sha } })).body;
    const results = await Promise.all([1, 2, 3, 4].map((i) => claimNextBuild(s.db, `racer-${i}`, 60_000)));
    const winners = results.filter((r) => r !== null);
    expect(winners).to.have.length(1);
    const row = await s.db('ci_builds').where({ id: winners[0]!.build.id }).first();
    expect(row.pipeline_id).to.equal(pipeline.id);
    expect(row.status).to.equal('running');
    expect(row.token_digest).to.equal(crypto.createHash('sha256').update(winners[0]!.token).digest('hex'));
    expect(row.runner_owner).to.match(/^racer-/);
  });

  it('coverage: a backtracking regex over a long trace is stopped at its time limit, not the event loop', async () => {
    expect(await parseCoverage('Coverage \\d+\\.\\d+%', 'x\nCoverage 12.5%\nCoverage 80.25%\n')).to.equal(80.25);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const result = await parseCoverage('(a+)+$', `${'a'.repeat(40)}b`, 300);
    clearInterval(timer);
    expect(result).to.equal(null);
    expect(ticks, 'the event loop kept turning').to.be.above(5);
    expect(await parseCoverage('(unclosed', 'text')).to.equal(null);
  });
});
