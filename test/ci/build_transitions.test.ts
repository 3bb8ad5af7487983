// Job transitions (services/ci/build_transitions.ts): only GitLab's allowed moves, each from
// the status it was read in; a success runs the next stage and records a deployment for a
// job with an environment; the pipeline's status follows.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';

const CI = `stages: [build, deploy]
build:
  stage: build
  script: make
deploy:
  stage: deploy
  script: ./deploy
  environment:
    name: Review/Feature
    url: https://review.example.com
`;

describe('CI job transitions', function () {
  this.timeout(60_000);
  let s: TestServer;
  let project: any;
  before(async () => {
    s = await bootServer();
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-transitions' });
  });
  after(() => s.close());

  const jobs = async (pipelineId: number) => (await s.get(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: ROOT_TOKEN })).body as any[];
  const pipeline = async (id: number) => (await s.get(`/projects/${project.id}/pipelines/${id}`, { token: ROOT_TOKEN })).body;

  it('runs the stages in order to success and records the deployment of the job with an environment', async () => {
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }], { token: ROOT_TOKEN });
    await s.drainJobs();
    const [{ id }] = (await s.get(`/projects/${project.id}/pipelines`, { token: ROOT_TOKEN })).body;
    const [build] = (await jobs(id)).filter((j) => j.name === 'build');
    expect(await transitionBuild(s.deps.db, build.id, 'success')).to.have.property('status', 'success');
    expect((await pipeline(id)).status).to.equal('running');
    expect(await transitionBuild(s.deps.db, build.id, 'failed'), 'a finished job does not move again').to.equal(null);
    const [deploy] = (await jobs(id)).filter((j) => j.name === 'deploy');
    expect(deploy.status).to.equal('pending');
    await transitionBuild(s.deps.db, deploy.id, 'running');
    const done = await transitionBuild(s.deps.db, deploy.id, 'success');
    expect(done!.started_at).to.be.a('string');
    expect(done!.finished_at).to.be.a('string');
    expect((await pipeline(id)).status).to.equal('success');
    const deployments = await s.deps.db('deployments').where({ project_id: project.id });
    expect(deployments).to.have.length(1);
    expect(deployments[0]).to.include({ iid: 1, ref: 'master', deployable_id: deploy.id });
    const env = await s.deps.db('environments').where({ id: deployments[0].environment_id }).first();
    expect(env).to.include({ name: 'Review/Feature', external_url: 'https://review.example.com' });
    expect(env.slug).to.match(/^review-feature-[0-9a-f]{6}$/);
  });

  it('refuses moves GitLab does not allow and jobs that do not exist', async () => {
    await commitFiles(s, project.id, 'master', [{ action: 'update', file_path: '.gitlab-ci.yml', content: CI.replace('make', 'make all') }], { token: ROOT_TOKEN });
    await s.drainJobs();
    const [{ id }] = (await s.get(`/projects/${project.id}/pipelines`, { token: ROOT_TOKEN })).body;
    const [deploy] = (await jobs(id)).filter((j) => j.name === 'deploy');
    expect(deploy.status).to.equal('created');
    expect(await transitionBuild(s.deps.db, deploy.id, 'running')).to.equal(null);
    expect(await transitionBuild(s.deps.db, 2 ** 31 - 1, 'running')).to.equal(null);
    const [build] = (await jobs(id)).filter((j) => j.name === 'build');
    expect(await transitionBuild(s.deps.db, build.id, 'failed')).to.have.property('status', 'failed');
    expect((await jobs(id)).find((j) => j.name === 'deploy').status).to.equal('skipped');
    expect((await pipeline(id)).status).to.equal('failed');
  });
});
