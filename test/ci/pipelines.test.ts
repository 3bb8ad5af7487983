// Pipelines created from real .gitlab-ci.yml files on push (git over HTTP and API commits),
// `[ci skip]`, invalid files kept as failed pipelines with GitLab's yaml_errors, and
// POST /projects/:id/pipeline's 400s. (No runner yet: jobs wait in `pending`.)
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { commit, gitOk, repoUrl, workRepo } from '../transport/git_client.js';

const CI = `stages: [build, test]
build:
  stage: build
  script: echo build
test:
  script: echo test
deploy:
  stage: test
  script: echo deploy
  when: manual
only_tags:
  stage: test
  script: echo tag
  only: [tags]
`;

describe('CI pipelines', function () {
  this.timeout(60_000);
  let s: TestServer;
  let project: any;
  before(async () => {
    s = await bootServer();
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-one' });
  });
  after(() => s.close());

  const pipelines = async (query: Record<string, string> = {}) => (await s.get(`/projects/${project.id}/pipelines`, { token: ROOT_TOKEN, query })).body;

  it('a git push with a .gitlab-ci.yml creates a pipeline whose first stage waits for a runner', async () => {
    const dir = await workRepo([{ '.gitlab-ci.yml': CI }]);
    const sha = await commit(dir, { 'a.txt': 'a' }, 'second');
    await gitOk(['push', '-q', repoUrl(s, project.path_with_namespace, ROOT_TOKEN, 'root'), 'HEAD:refs/heads/master'], { cwd: dir });
    await s.drainJobs();
    const list = await pipelines();
    expect(list).to.have.length(1);
    expect(list[0]).to.deep.equal({ id: list[0].id, sha, ref: 'master', status: 'pending' });
    const one = (await s.get(`/projects/${project.id}/pipelines/${list[0].id}`, { token: ROOT_TOKEN })).body;
    expect(one).to.include({ sha, ref: 'master', tag: false, yaml_errors: null, status: 'pending' });
    expect(one.before_sha).to.equal('0000000000000000000000000000000000000000');
    expect(one.user.username).to.equal('root');
    const jobs = (await s.get(`/projects/${project.id}/pipelines/${one.id}/jobs`, { token: ROOT_TOKEN })).body;
    expect(jobs.map((j: any) => [j.name, j.stage, j.status]).sort()).to.deep.equal([
      ['build', 'build', 'pending'],
      ['deploy', 'test', 'created'],
      ['test', 'test', 'created'],
    ]);
    expect(jobs[0].commit.id).to.equal(sha);
    expect(jobs[0].pipeline).to.deep.equal({ id: one.id, sha, ref: 'master', status: 'pending' });
    const pending = (await s.get(`/projects/${project.id}/jobs`, { token: ROOT_TOKEN, query: { 'scope[]': 'pending' } })).body;
    expect(pending.map((j: any) => j.name)).to.deep.equal(['build']);
  });

  it('[ci skip] gives a skipped pipeline; an invalid file a failed one with yaml_errors', async () => {
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'b.txt', content: 'b' }], { token: ROOT_TOKEN, message: 'quiet [ci skip]' });
    await commitFiles(s, project.id, 'master', [{ action: 'update', file_path: '.gitlab-ci.yml', content: 'build:\n  stage: build\n' }], { token: ROOT_TOKEN });
    await s.drainJobs();
    const [failed, skipped] = await pipelines();
    expect(skipped.status).to.equal('skipped');
    expect(failed.status).to.equal('failed');
    const detail = (await s.get(`/projects/${project.id}/pipelines/${failed.id}`, { token: ROOT_TOKEN })).body;
    expect(detail.yaml_errors).to.equal("jobs:build script can't be blank");
    expect((await pipelines({ yaml_errors: 'true' })).map((x: any) => x.id)).to.deep.equal([failed.id]);
    expect((await pipelines({ status: 'skipped' })).map((x: any) => x.id)).to.deep.equal([skipped.id]);
  });

  it('POST /projects/:id/pipeline answers GitLab 400s and stores nothing on error', async () => {
    const before = (await pipelines()).length;
    const bad = await s.post(`/projects/${project.id}/pipeline`, { token: ROOT_TOKEN, json: { ref: 'nope' } });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ message: { base: ['Reference not found'] } });
    const yaml = await s.post(`/projects/${project.id}/pipeline`, { token: ROOT_TOKEN, json: { ref: 'master' } });
    expect(yaml.status).to.equal(400);
    expect(yaml.body).to.deep.equal({ message: { base: ["jobs:build script can't be blank"] } });
    expect((await pipelines()).length).to.equal(before);
    await commitFiles(s, project.id, 'master', [{ action: 'update', file_path: '.gitlab-ci.yml', content: CI }], { token: ROOT_TOKEN, message: 'fix [ci skip]' });
    const ok = await s.post(`/projects/${project.id}/pipeline`, { token: ROOT_TOKEN, json: { ref: 'master' } });
    expect(ok.status, ok.text).to.equal(201);
    expect(ok.body).to.include({ ref: 'master', status: 'pending' });
    const missing = await s.get(`/projects/${project.id}/pipelines/999999`, { token: ROOT_TOKEN });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 Not found' });
  });
});

describe('CI pipeline cancel and retry', function () {
  this.timeout(60_000);
  let s: TestServer;
  let project: any;
  before(async () => {
    s = await bootServer();
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-two' });
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }], { token: ROOT_TOKEN });
    await s.drainJobs();
  });
  after(() => s.close());

  it('cancel cancels every waiting job; retry brings the canceled ones back as new jobs', async () => {
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`, { token: ROOT_TOKEN })).body;
    const canceled = await s.post(`/projects/${project.id}/pipelines/${pipeline.id}/cancel`, { token: ROOT_TOKEN });
    expect(canceled.status).to.equal(200);
    expect(canceled.body.status).to.equal('canceled');
    const jobs = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`, { token: ROOT_TOKEN })).body;
    expect(jobs.map((j: any) => j.status)).to.deep.equal(['canceled', 'canceled', 'canceled']);
    const retried = await s.post(`/projects/${project.id}/pipelines/${pipeline.id}/retry`, { token: ROOT_TOKEN });
    expect(retried.status).to.equal(201);
    expect(retried.body.status).to.equal('pending');
    const all = (await s.get(`/projects/${project.id}/jobs`, { token: ROOT_TOKEN })).body;
    expect(all).to.have.length(6); // three canceled, three new
    // The pipeline's jobs, the retried ones too, as 10.8's `pipeline.builds`, newest first.
    const listed = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`, { token: ROOT_TOKEN })).body;
    expect(
      listed
        .slice(0, 3)
        .map((j: any) => [j.name, j.status])
        .sort(),
    ).to.deep.equal([
      ['build', 'pending'],
      ['deploy', 'created'],
      ['test', 'created'],
    ]);
    expect(listed.slice(3).map((j: any) => j.status)).to.deep.equal(['canceled', 'canceled', 'canceled']);
    const missing = await s.post(`/projects/${project.id}/pipelines/424242/cancel`, { token: ROOT_TOKEN });
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ message: '404 Not found' });
  });
});
