// Deployments and environments (GitLab 10.8 lib/api/deployments.rb, environments.rb): real
// pipelines from real .gitlab-ci.yml files whose `environment` jobs succeed record
// deployments; the list (order_by, sort asc by default, pagination) and one by id with the
// user, environment and deploying job embedded (one query per kind, whatever the page size);
// the environments list with its project; every error with its status and body; who may read
// (reporters; not a public project's non-members; nobody while jobs are disabled).
import { expect } from 'chai';
import { commitFiles, created, createBranch } from '../helpers/projects.js';
import { addRoleMembers, useServerWithRoles } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';

const ci = (env: string, url: string) =>
  `build:\n  stage: build\n  script: make\ndeploy:\n  stage: deploy\n  script: ./deploy\n  environment:\n    name: ${env}\n    url: ${url}\n`;
const FORBIDDEN = { message: '403 Forbidden' };
const DEPLOYMENT_KEYS = ['id', 'iid', 'ref', 'sha', 'created_at', 'user', 'environment', 'deployable'];
const JOB_KEYS = ['id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'created_at', 'started_at', 'finished_at', 'duration', 'user', 'commit', 'pipeline', 'runner'];

describe('Deployments and environments API', function () {
  this.timeout(60_000);
  const { s, owner, reporter, guest, stranger, admin } = useServerWithRoles();
  let project: any;
  const deployed: { sha: string; ref: string; jobId: number; pipelineId: number }[] = [];

  /** Commits the CI file on `branch`, then runs its pipeline's jobs to success; the deploy job's facts. */
  async function deploy(branch: string, content: string, action: 'create' | 'update', start?: string) {
    const sha = await commitFiles(s, project.id, branch, [{ action, file_path: '.gitlab-ci.yml', content }], { token: owner.token, start });
    await s.drainJobs();
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`, { query: { sha } })).body;
    const jobs = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`)).body as any[];
    for (const name of ['build', 'deploy']) {
      const job = jobs.find((j) => j.name === name);
      await transitionBuild(s.deps.db, job.id, 'running');
      expect(await transitionBuild(s.deps.db, job.id, 'success')).to.have.property('status', 'success');
    }
    deployed.push({ sha, ref: branch, jobId: jobs.find((j) => j.name === 'deploy').id, pipelineId: pipeline.id });
  }

  before(async () => {
    project = created(await s.post('/projects', { token: owner.token, json: { name: 'shipped', visibility: 'private' } }));
    await addRoleMembers(s, project.id, { reporter, guest });
    await deploy('master', ci('production', 'https://prod.example.com'), 'create');
    await createBranch(s, project.id, 'alpha', 'master', owner.token);
    await deploy('alpha', ci('staging', 'https://staging.example.com'), 'update');
    await deploy('master', ci('production', 'https://prod.example.com/v2'), 'update');
  });

  const url = (suffix = '') => `/projects/${project.id}/deployments${suffix}`;

  it('lists deployments oldest first with their user, environment and job (Entities::Deployment)', async () => {
    const r = await s.get(url(), { token: reporter.token });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('x-total')).to.equal('3');
    expect(r.body.map((d: any) => [d.iid, d.ref, d.sha])).to.deep.equal(deployed.map((d, i) => [i + 1, d.ref, d.sha]));
    const [first, second, third] = r.body;
    expect(Object.keys(first)).to.deep.equal(DEPLOYMENT_KEYS);
    expect(first.user).to.include({ id: owner.user.id, username: owner.user.username });
    expectSchema(first.user, 'public_api/v4/user/basic.json');
    expect(first.environment).to.deep.equal({ id: first.environment.id, name: 'production', slug: first.environment.slug, external_url: 'https://prod.example.com/v2' });
    expect(first.environment.slug).to.equal('production');
    expect(third.environment).to.deep.equal(first.environment);
    expect(second.environment).to.include({ name: 'staging', slug: 'staging', external_url: 'https://staging.example.com' });
    const job = first.deployable;
    expect(Object.keys(job)).to.deep.equal(JOB_KEYS);
    expect(job).to.include({ id: deployed[0].jobId, status: 'success', stage: 'deploy', name: 'deploy', ref: 'master', tag: false, runner: null });
    expect(Object.keys(job.user)).to.deep.equal([...Object.keys(first.user), 'created_at', 'bio', 'location', 'skype', 'linkedin', 'twitter', 'website_url', 'organization']);
    expect(job.user).to.include({ id: owner.user.id });
    expect(job.commit.id).to.equal(deployed[0].sha);
    expectSchema(job.commit, 'public_api/v4/commit/basic.json');
    expect(job.pipeline).to.deep.equal({ id: deployed[0].pipelineId, sha: deployed[0].sha, ref: 'master', status: 'success' });
    expectSchema(job.pipeline, 'public_api/v4/pipeline/basic.json');
    expect(second.deployable).to.include({ id: deployed[1].jobId, ref: 'alpha' });
  });

  it('orders by id, iid, created_at or ref, ascending unless sort=desc, and pages', async () => {
    const order = async (query: Record<string, string | number>) => (await s.get(url(), { token: reporter.token, query })).body.map((d: any) => d.iid);
    expect(await order({ sort: 'desc' })).to.deep.equal([3, 2, 1]);
    expect(await order({ order_by: 'iid', sort: 'desc' })).to.deep.equal([3, 2, 1]);
    expect(await order({ order_by: 'created_at' })).to.deep.equal([1, 2, 3]);
    expect(await order({ order_by: 'ref' })).to.deep.equal([2, 1, 3]);
    expect(await order({ order_by: 'ref', sort: 'desc' })).to.deep.equal([3, 1, 2]);
    expect(await order({ per_page: 2, page: 2 })).to.deep.equal([3]);
  });

  it('loads a page with one query per kind, whatever its size', async () => {
    const queries = async (perPage: number) => {
      let n = 0;
      const count = () => void n++;
      s.db.on('query', count);
      try {
        expect((await s.get(url(), { token: reporter.token, query: { per_page: perPage } })).body).to.have.length(perPage);
      } finally {
        s.db.removeListener('query', count);
      }
      return n;
    };
    const one = await queries(1);
    expect(one, 'the listener sees the queries').to.be.above(3);
    expect(await queries(3)).to.equal(one);
  });

  it('gets one deployment by its id (not iid); 404 Not found for another project or none', async () => {
    const list = (await s.get(url(), { token: reporter.token })).body;
    const one = await s.get(url(`/${list[1].id}`), { token: reporter.token });
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(list[1]);
    const other = created(await s.post('/projects', { token: owner.token, json: { name: 'elsewhere' } }));
    for (const path of [url('/999999'), `/projects/${other.id}/deployments/${list[0].id}`]) {
      const r = await s.get(path, { token: owner.token });
      expect(r.status, path).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Not found' });
    }
  });

  it('answers 400 for a bad deployment_id, order_by or sort', async () => {
    const cases: [string, Record<string, string>, string][] = [
      [url('/abc'), {}, 'deployment_id is invalid'],
      [url(), { order_by: 'name' }, 'order_by does not have a valid value'],
      [url(), { sort: 'up' }, 'sort does not have a valid value'],
    ];
    for (const [path, query, error] of cases) {
      const r = await s.get(path, { token: reporter.token, query });
      expect(r.status, error).to.equal(400);
      expect(r.body).to.deep.equal({ error });
    }
  });

  it('lists environments with their project (Entities::Environment)', async () => {
    const r = await s.get(`/projects/${project.id}/environments`, { token: reporter.token });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('x-total')).to.equal('2');
    expect(r.body.map((e: any) => Object.keys(e))).to.deep.equal([
      ['id', 'name', 'slug', 'external_url', 'project'],
      ['id', 'name', 'slug', 'external_url', 'project'],
    ]);
    expect(r.body.map((e: any) => [e.name, e.slug, e.external_url])).to.deep.equal([
      ['production', 'production', 'https://prod.example.com/v2'],
      ['staging', 'staging', 'https://staging.example.com'],
    ]);
    expect(r.body[0].project).to.include({ id: project.id, path_with_namespace: project.path_with_namespace, default_branch: 'master' });
    expect(r.body[0].project).not.to.have.property('permissions');
    const paged = await s.get(`/projects/${project.id}/environments`, { token: reporter.token, query: { per_page: 1, page: 2 } });
    expect(paged.body.map((e: any) => e.name)).to.deep.equal(['staging']);
  });

  it("needs a signed-in reporter: 401, 403 for guests and a public project's non-members, 404 for a private one", async () => {
    const paths = [url(), url('/1'), `/projects/${project.id}/environments`];
    for (const path of paths) {
      const anon = await s.get(path, { token: null });
      expect(anon.status, path).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      const g = await s.get(path, { token: guest.token });
      expect(g.status, path).to.equal(403);
      expect(g.body).to.deep.equal(FORBIDDEN);
      const hidden = await s.get(path, { token: stranger.token });
      expect(hidden.status, path).to.equal(404);
      expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
    }
    expect((await s.get(url(), { token: admin.token })).body).to.have.length(3);
    expect((await s.put(`/projects/${project.id}`, { token: owner.token, json: { visibility: 'public' } })).status).to.equal(200);
    for (const path of paths) {
      const r = await s.get(path, { token: stranger.token });
      expect(r.status, path).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
    }
  });

  it("refuses everyone, admins too, while the project's jobs are disabled (403)", async () => {
    expect((await s.put(`/projects/${project.id}`, { token: owner.token, json: { jobs_enabled: false } })).status).to.equal(200);
    for (const path of [url(), `/projects/${project.id}/environments`]) {
      for (const who of [reporter, admin]) {
        const r = await s.get(path, { token: who.token });
        expect(r.status, path).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
    }
    await s.put(`/projects/${project.id}`, { token: owner.token, json: { jobs_enabled: true } });
  });
});
