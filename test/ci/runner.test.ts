// The built-in shell runner (WHARF_RUNNER=shell): real commits with real .gitlab-ci.yml files
// run to success, failure, skipped, manual (then played), canceled and timed-out; the job sees
// GitLab's predefined variables and the project's (a protected one only on a protected branch)
// but none of the server's environment; the trace is stored; artifacts are collected and every
// escape refused; a job left running by a dead process is failed.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { commit, git, gitOk, repoUrl, workRepo } from '../transport/git_client.js';
import { hostProcesses } from '../helpers/job_signals.js';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

describe('CI shell runner', function () {
  this.timeout(120_000);
  let s: TestServer;
  let project: any;
  let n = 0;
  before(async () => {
    process.env.WHARF_TEST_LEAK_CHECK = 'server-secret-value';
    s = await bootServer({ WHARF_RUNNER: 'shell', WHARF_RUNNER_CONCURRENCY: '2', WHARF_JOB_POLL_MS: '100' });
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-runner' });
  });
  after(async () => {
    delete process.env.WHARF_TEST_LEAK_CHECK;
    await s.close();
  });

  async function push(ci: string, branch = 'master', extra: { file_path: string; content: string }[] = []): Promise<number> {
    const before = (await s.get(`/projects/${project.id}/pipelines`)).body.length;
    const action = n++ === 0 ? 'create' : 'update';
    await commitFiles(s, project.id, branch, [{ action, file_path: '.gitlab-ci.yml', content: ci }, ...extra.map((e) => ({ action: 'create', ...e }))], { token: ROOT_TOKEN });
    await s.drainJobs();
    const list = (await s.get(`/projects/${project.id}/pipelines`)).body;
    expect(list.length).to.equal(before + 1);
    return list[0].id;
  }

  async function until(pipelineId: number, statuses: string[], ms = 60_000): Promise<any> {
    const end = Date.now() + ms;
    for (;;) {
      const p = (await s.get(`/projects/${project.id}/pipelines/${pipelineId}`)).body;
      if (statuses.includes(p.status)) return p;
      if (Date.now() > end) throw new Error(`pipeline ${pipelineId} still ${p.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const jobs = async (id: number) => (await s.get(`/projects/${project.id}/pipelines/${id}/jobs`)).body as any[];
  const trace = async (jobId: number) => (await s.get(`/projects/${project.id}/jobs/${jobId}/trace`)).text;

  it('runs stages in order to success with GitLab variables, and keeps the server environment out', async () => {
    await s.db('ci_variables').insert({ project_id: project.id, key: 'SECRET', value: 's3cret-value', protected: false });
    const ci = `variables:
  GLOBAL_VAR: from-yaml
stages: [build, test]
build:
  stage: build
  before_script: [echo before]
  script:
    - echo "job=$CI_JOB_NAME stage=$CI_JOB_STAGE sha=$CI_COMMIT_SHA ref=$CI_COMMIT_REF_NAME slug=$CI_COMMIT_REF_SLUG"
    - echo "project=$CI_PROJECT_PATH id=$CI_PROJECT_ID pipeline=$CI_PIPELINE_ID ci=$CI gitlab=$GITLAB_CI user=$GITLAB_USER_LOGIN"
    - echo "global=$GLOBAL_VAR"
    - printf %s "$SECRET" | sha256sum
    - echo "leak=[$WHARF_TEST_LEAK_CHECK][$WHARF_DB]"
    - test "$PWD" = "$CI_PROJECT_DIR" && test -f .gitlab-ci.yml && echo in-checkout
  after_script: [echo after-ran]
test:
  stage: test
  script: echo "Coverage 87.5% done"
  coverage: '/Coverage \\d+\\.\\d+%/'
`;
    const id = await push(ci);
    const p = await until(id, ['success', 'failed']);
    expect(p.status).to.equal('success');
    const [build, testJob] = (await jobs(id)).sort((a, b) => a.id - b.id);
    const log = await trace(build.id);
    expect(log).to.include('$ echo before');
    expect(log).to.include(`job=build stage=build sha=${p.sha} ref=master slug=master`);
    expect(log).to.include(`project=root/ci-runner id=${project.id} pipeline=${id} ci=true gitlab=true user=root`);
    expect(log).to.include('global=from-yaml');
    expect(log).to.include(sha256('s3cret-value'));
    expect(log).not.to.include('s3cret-value');
    expect(log).to.include('leak=[][]');
    expect(log).to.include('in-checkout');
    expect(log).to.include('after-ran');
    const single = (await s.get(`/projects/${project.id}/jobs/${testJob.id}`)).body;
    expect(single).to.include({ status: 'success', coverage: 87.5, runner: null });
    expect(single.duration).to.be.a('number');
  });

  it('stops at the first failing command, runs after_script, and skips the later stages', async () => {
    const ci = `stages: [build, test]
build:
  stage: build
  script: [echo one, "false", echo never-printed]
  after_script: [echo after-failure]
test:
  stage: test
  script: echo test
`;
    const id = await push(ci);
    expect((await until(id, ['success', 'failed'])).status).to.equal('failed');
    const [build, testJob] = (await jobs(id)).sort((a, b) => a.id - b.id);
    expect(build.status).to.equal('failed');
    expect(testJob.status).to.equal('skipped');
    const log = await trace(build.id);
    expect(log).to.include('one');
    expect(log).not.to.include('never-printed');
    expect(log).to.include('after-failure');
    expect(log).to.include('ERROR: Job failed: exit code 1');
  });

  it('waits at a manual job, which play runs', async () => {
    const id = await push(`deploy:\n  script: echo "deployed-now manual=[$CI_JOB_MANUAL]"\n  when: manual\n  environment: production\n`);
    // A manual job is allowed to fail by default (GitLab 10.8): it does not hold the pipeline.
    await until(id, ['manual', 'success', 'skipped']);
    const [job] = await jobs(id);
    expect(job.status).to.equal('manual');
    const played = await s.post(`/projects/${project.id}/jobs/${job.id}/play`);
    expect(played.status).to.equal(200);
    expect(played.body.status).to.equal('pending');
    for (let i = 0; i < 300 && (await jobs(id))[0].status !== 'success'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await jobs(id))[0].status).to.equal('success');
    expect(await trace(job.id)).to.include('deployed-now manual=[true]');
    const deployments = await s.db('deployments').where({ project_id: project.id, deployable_id: job.id });
    expect(deployments).to.have.length(1);
  });

  it('kills a running job on cancel, everything it started with it', async () => {
    const marker = `sleep 3${process.pid % 1000}.25`;
    const id = await push(`sleeper:\n  script:\n    - ${marker} &\n    - setsid ${marker} > /dev/null 2>&1 < /dev/null &\n    - echo started\n    - sleep 1000\n`);
    await until(id, ['running']);
    const [job] = await jobs(id);
    for (let i = 0; i < 200 && !(await trace(job.id)).includes('started'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(hostProcesses({ marker })).to.have.length(2);
    const canceled = await s.post(`/projects/${project.id}/pipelines/${id}/cancel`);
    expect(canceled.body.status).to.equal('canceled');
    for (let i = 0; i < 100 && s.running.ciRunner!.busy > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(s.running.ciRunner!.busy).to.equal(0);
    expect(hostProcesses({ marker }), 'what the job started was killed with it').to.deep.equal([]);
    expect((await s.get(`/projects/${project.id}/jobs/${job.id}`)).body.status).to.equal('canceled');
  });

  it('fetches with CI_REPOSITORY_URL (gitlab-ci-token) while it runs, never pushes, and the token ends with the job', async () => {
    const id = await push(`fetch:
  script:
    - echo "token=$CI_JOB_TOKEN"
    - git ls-remote "$CI_REPOSITORY_URL" refs/heads/master | cut -f2
    - git clone -q "$CI_REPOSITORY_URL" again && test -f again/.gitlab-ci.yml && echo cloned
    - git -C again -c user.name=ci -c user.email=ci@example.com commit -q --allow-empty -m from-job
    - if git -C again push -q origin HEAD:refs/heads/from-job; then echo pushed; else echo push-refused; fi
`);
    expect((await until(id, ['success', 'failed'])).status).to.equal('success');
    const [job] = await jobs(id);
    const log = await trace(job.id);
    const lines = log.split('\n').map((l) => l.trim());
    expect(lines).to.include.members(['refs/heads/master', 'cloned', 'push-refused']);
    expect(log).to.include('You are not allowed to upload code');
    expect((await s.get(`/projects/${project.id}/repository/branches/from-job`)).status).to.equal(404);
    // The job has finished: its token no longer opens the repository.
    const token = lines.find((l) => l.startsWith('token='))!.slice('token='.length);
    expect(token).to.match(/^[0-9a-f]{40}$/);
    const refused = await git(['ls-remote', repoUrl(s, project.path_with_namespace, token, 'gitlab-ci-token')]);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('HTTP Basic: Access denied');
  });

  it('fails a job that runs past the project build_timeout', async () => {
    await s.db('projects').where({ id: project.id }).update({ build_timeout: 1 });
    try {
      const id = await push(`slow:\n  script: sleep 1000\n`);
      expect((await until(id, ['success', 'failed'])).status).to.equal('failed');
      const [job] = await jobs(id);
      expect(await trace(job.id)).to.include('execution took longer than 1 seconds');
    } finally {
      await s.db('projects').where({ id: project.id }).update({ build_timeout: 3600 });
    }
  });

  it('caps the trace at 4 MB with a truncation line, and the job goes on', async () => {
    const id = await push(`noisy:\n  script:\n    - head -c 6000000 /dev/zero | tr '\\\\0' x\n    - echo finished-after-cap\n`);
    expect((await until(id, ['success', 'failed'])).status).to.equal('success');
    const [job] = await jobs(id);
    const log = await trace(job.id);
    expect(log.length).to.be.below(4 * 1024 * 1024 + 4096);
    expect(log).to.include("Job's log exceeded limit of 4194304 bytes.");
    expect(log).not.to.include('finished-after-cap');
  });

  it('collects artifacts, refuses escapes, and serves the archive', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside-data');
    const ci = `pack:
  script:
    - mkdir -p out/sub && echo hello > out/a.txt && echo deep > out/sub/b.txt && echo top > report.txt
    - ln -s ${outside}/secret.txt link-out.txt
    - ln -s report.txt link-in.txt
  artifacts:
    paths: [out/, "*.txt", ../escape, ${outside}/secret.txt]
    name: "$CI_JOB_NAME-$CI_COMMIT_REF_SLUG"
    expire_in: 1 week
`;
    const id = await push(ci);
    expect((await until(id, ['success', 'failed'])).status).to.equal('success');
    const [job] = await jobs(id);
    const log = await trace(job.id);
    expect(log).to.include('../escape: leaves the project directory, not archived');
    expect(log).to.include(`${outside}/secret.txt: is an absolute path, not archived`);
    expect(log).to.include('link-out.txt: a symbolic link outside the project directory, not archived');
    const single = (await s.get(`/projects/${project.id}/jobs/${job.id}`)).body;
    expect(single.artifacts_file.filename).to.equal('pack-master.zip');
    expect(single.artifacts_file.size).to.be.above(0);
    const stored = await s.db('ci_builds').where({ id: job.id }).first();
    const week = Date.parse(stored.artifacts_expire_at) - Date.parse(stored.finished_at);
    expect(Math.round(week / 3_600_000)).to.equal(7 * 24);
    const zip = await s.get(`/projects/${project.id}/jobs/${job.id}/artifacts`);
    expect(zip.status).to.equal(200);
    expect(zip.headers.get('content-type')).to.equal('application/octet-stream');
    expect(zip.headers.get('content-disposition')).to.equal('attachment; filename=pack-master.zip');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-zip-'));
    const res = await fetch(`${s.url}/api/v4/projects/${project.id}/jobs/artifacts/master/download?job=pack`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } });
    expect(res.status).to.equal(200);
    fs.writeFileSync(path.join(dir, 'a.zip'), Buffer.from(await res.arrayBuffer()));
    const listing = execFileSync('python3', ['-c', 'import zipfile,sys;print("\\n".join(sorted(zipfile.ZipFile(sys.argv[1]).namelist())))', path.join(dir, 'a.zip')])
      .toString()
      .trim()
      .split('\n');
    expect(listing).to.deep.equal(['link-in.txt', 'out/a.txt', 'out/sub/b.txt', 'report.txt']);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('fails a job left running by a process that died (its lease expired)', async () => {
    const id = await push(`build:\n  script: echo fine\n`);
    await until(id, ['success', 'failed']);
    const [job] = await jobs(id);
    // As a crashed process leaves it: running, under a lease that expired.
    await s.db('ci_builds').where({ id: job.id }).update({ status: 'success' });
    const [clone] = await s
      .db('ci_builds')
      .insert({
        ...(await s.db('ci_builds').where({ id: job.id }).first()),
        id: undefined,
        status: 'running',
        retried: false,
        runner_owner: 'dead:1:0',
        lease_until: new Date(Date.now() - 1000).toISOString(),
      })
      .returning('id');
    await s.db('ci_builds').where({ id: job.id }).update({ retried: true });
    const cloneId = typeof clone === 'number' ? clone : clone.id;
    for (let i = 0; i < 100; i++) {
      const row = await s.db('ci_builds').where({ id: cloneId }).first();
      if (row.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await s.db('ci_builds').where({ id: cloneId }).first()).status).to.equal('failed');
    expect((await s.get(`/projects/${project.id}/pipelines/${id}`)).body.status).to.equal('failed');
  });

  it('gives a protected variable only to jobs of a protected branch (pushed with git)', async () => {
    const other = await createProject(s, ROOT_TOKEN, { name: 'ci-protected' });
    await s.db('ci_variables').insert([
      { project_id: other.id, key: 'OPEN_VAR', value: 'open-value', protected: false },
      { project_id: other.id, key: 'DEPLOY_KEY', value: 'protected-value', protected: true },
    ]);
    const ci = `show:\n  script:\n    - echo "open=[$OPEN_VAR] protected=[$DEPLOY_KEY]"\n`;
    const dir = await workRepo([{ '.gitlab-ci.yml': ci }]);
    await gitOk(['push', '-q', repoUrl(s, other.path_with_namespace, ROOT_TOKEN, 'root'), 'master'], { cwd: dir });
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: dir });
    await commit(dir, { 'b.txt': 'b' }, 'on a feature branch');
    await gitOk(['push', '-q', repoUrl(s, other.path_with_namespace, ROOT_TOKEN, 'root'), 'feature'], { cwd: dir });
    await s.drainJobs();
    const list = (await s.get(`/projects/${other.id}/pipelines`)).body as any[];
    expect(list.map((p) => p.ref).sort()).to.deep.equal(['feature', 'master']);
    const logs: Record<string, string> = {};
    for (const p of list) {
      const end = Date.now() + 60_000;
      let status = p.status;
      while (!['success', 'failed'].includes(status) && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await s.get(`/projects/${other.id}/pipelines/${p.id}`)).body.status;
      }
      expect(status).to.equal('success');
      const [job] = (await s.get(`/projects/${other.id}/pipelines/${p.id}/jobs`)).body;
      logs[p.ref] = (await s.get(`/projects/${other.id}/jobs/${job.id}/trace`)).text;
    }
    // master is protected by default (default_branch_protection); feature is not.
    expect(logs.master).to.include('open=[open-value] protected=[protected-value]');
    expect(logs.feature).to.include('open=[open-value] protected=[]');
  });

  it('bounds a fork bomb by the process limit; the job fails and the server stays up', async () => {
    await s.db('projects').where({ id: project.id }).update({ build_timeout: 10 });
    try {
      const id = await push(`bomb:\n  script:\n    - 'bomb() { bomb | bomb & }; bomb; sleep 2; exit 1'\n`);
      expect((await until(id, ['success', 'failed'])).status).to.equal('failed');
    } finally {
      await s.db('projects').where({ id: project.id }).update({ build_timeout: 3600 });
    }
    expect((await s.get('/version')).status).to.equal(200);
  });

  it('runs a retried job again (POST /jobs/:id/retry) to success', async () => {
    const id = await push(`flaky:\n  script:\n    - test -f marker-from-retry || { echo first-attempt; exit 3; }\n`);
    expect((await until(id, ['success', 'failed'])).status).to.equal('failed');
    const [job] = await jobs(id);
    await s
      .db('ci_builds')
      .where({ id: job.id })
      .update({ options: JSON.stringify({ script: ['echo second-attempt'] }) });
    const retried = await s.post(`/projects/${project.id}/jobs/${job.id}/retry`);
    expect(retried.status).to.equal(201);
    expect((await until(id, ['success', 'failed'])).status).to.equal('success');
    expect(await trace(retried.body.id)).to.include('second-attempt');
    expect(await trace(job.id)).to.include('first-attempt');
  });

  it("unpacks earlier stages' artifacts (dependencies) into the checkout", async () => {
    const ci = `stages: [build, test]
make:
  stage: build
  script: [mkdir -p dist, echo built-bits > dist/app.txt]
  artifacts:
    paths: [dist/]
other:
  stage: build
  script: [echo other > other.txt]
  artifacts:
    paths: [other.txt]
use:
  stage: test
  dependencies: [make]
  script: [cat dist/app.txt, test ! -e other.txt && echo no-other]
`;
    const id = await push(ci);
    expect((await until(id, ['success', 'failed'])).status).to.equal('success');
    const use = (await jobs(id)).find((j) => j.name === 'use');
    const log = await trace(use.id);
    expect(log).to.include('built-bits');
    expect(log).to.include('no-other');
  });

  // Last: it stops this server's runner.
  it('on stop kills the running jobs and fails them', async () => {
    const id = await push(`long:\n  script:\n    - echo started-long\n    - sleep 1000\n`);
    await until(id, ['running']);
    const [job] = await jobs(id);
    for (let i = 0; i < 200 && !(await trace(job.id)).includes('started-long'); i++) await new Promise((r) => setTimeout(r, 100));
    await s.running.ciRunner!.stop();
    expect(s.running.ciRunner!.busy).to.equal(0);
    const row = await s.db('ci_builds').where({ id: job.id }).first();
    expect(row.status).to.equal('failed');
    expect(row.lease_until).to.equal(null);
    expect(await trace(job.id)).to.include('the server stopped while the job was running');
  });
});
