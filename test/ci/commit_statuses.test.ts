// GitLab 10.8's commit statuses for external CI (lib/api/commit_statuses.rb and its spec):
// POST /projects/:id/statuses/:sha with its transitions, the pipeline it creates or joins and
// that pipeline's composite status, GET .../repository/commits/:sha/statuses with its filters
// and pages, who may do what, and the commit's last_pipeline. Real app, real repositories.
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { WHARF_ENTITIES } from '../../src/api/core/openapi/entity_schemas.js';
import { pipelineCoverage } from '../../src/entities/pipeline.js';
import { claimNextBuild } from '../../src/services/ci/runner/pickup.js';
import { commitFiles, createBranch, createProject } from '../helpers/projects.js';
import { addRoleMembers, useServerWithRoles } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';

/** Checks a status against the CommitStatus schema of the OpenAPI document (GitLab 10.8 committed none). */
const ajv = new Ajv2020({ strict: false, allErrors: true });
formats.default(ajv);
const validStatus = ajv.compile(WHARF_ENTITIES.CommitStatus);
function expectStatus(body: unknown): void {
  expect(validStatus(body), ajv.errorsText(validStatus.errors)).to.equal(true);
}

const STATUS_KEYS = ['id', 'sha', 'ref', 'status', 'name', 'target_url', 'description', 'created_at', 'started_at', 'finished_at', 'allow_failure', 'coverage', 'author'];

describe('Commit statuses (external CI)', function () {
  this.timeout(120_000);
  const { s, owner, dev, reporter, guest, stranger } = useServerWithRoles();
  let project: any;
  let sha: string;
  const post = (json: Record<string, unknown>, token: string | null = dev.token, at = sha) => s.post(`/projects/${project.id}/statuses/${at}`, { token, json });
  const list = (query: Record<string, string | number> = {}, token: string | null = reporter.token, at = sha) =>
    s.get(`/projects/${project.id}/repository/commits/${at}/statuses`, { token, query });
  const pipelines = async () => (await s.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body as any[];

  before(async () => {
    project = await createProject(s, owner.token, { name: 'ext-ci', visibility: 'private' });
    await addRoleMembers(s, project.id, { dev, reporter, guest });
    sha = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hi' }], { token: owner.token });
    await s.drainJobs();
  });

  it('POST refuses with GitLab 10.8 statuses and bodies, and stores nothing', async () => {
    const cases: [Promise<any>, number, unknown][] = [
      [post({ state: 'success' }, null), 401, { message: '401 Unauthorized' }],
      [post({ state: 'success' }, stranger.token), 404, { message: '404 Project Not Found' }],
      [post({ state: 'success' }, guest.token), 403, { message: '403 Forbidden' }],
      [post({ state: 'success' }, reporter.token), 403, { message: '403 Forbidden' }],
      [post({}), 400, { error: 'state is missing' }],
      [post({ state: 'invalid' }), 400, { error: 'state does not have a valid value' }],
      [post({ state: 'success', coverage: 'lots' }), 400, { error: 'coverage is invalid' }],
      [post({ state: 'success' }, dev.token, 'a'.repeat(40)), 404, { message: '404 Commit Not Found' }],
      [post({ state: 'success' }, dev.token, 'nope'), 404, { message: '404 Commit Not Found' }],
      [post({ state: 'pending', target_url: 'invalid url' }), 400, { message: { target_url: ['must be a valid URL'] } }],
      [post({ state: 'pending', target_url: `http://x.org/${'a'.repeat(250)}` }), 400, { message: { target_url: ['is too long (maximum is 255 characters)'] } }],
      [post({ state: 'pending', name: ' ', target_url: 'ftp://x.org' }), 400, { message: { name: ["can't be blank"], target_url: ['must be a valid URL'] } }],
      [post({ state: 'pending', ref: ' ', name: '' }), 400, { message: { ref: ["can't be blank"] } }],
      [post({ state: 'pending', ref: `r${'é'.repeat(255)}` }), 400, { message: { ref: ['is too long (maximum is 255 characters)'] } }],
      [post({ state: 'pending', name: 'n'.repeat(256) }), 400, { message: { name: ['is too long (maximum is 255 characters)'] } }],
    ];
    for (const [reply, status, body] of cases) {
      const r = await reply;
      expect(r.status, r.text).to.equal(status);
      expect(r.body).to.deep.equal(body);
    }
    expect(await pipelines()).to.deep.equal([]);
  });

  it('a commit that no branch holds needs a ref (404 References for commit Not Found)', async () => {
    await createBranch(s, project.id, 'tmp', 'master', owner.token);
    const loose = await commitFiles(s, project.id, 'tmp', [{ action: 'create', file_path: 'tmp.txt', content: 't' }], { token: owner.token });
    expect((await s.delete(`/projects/${project.id}/repository/branches/tmp`, { token: owner.token })).status).to.equal(204);
    const r = await post({ state: 'success' }, dev.token, loose);
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ message: '404 References for commit Not Found' });
    const withRef = await post({ state: 'success', ref: 'gone' }, dev.token, loose);
    expect(withRef.status, withRef.text).to.equal(201);
    expect(withRef.body).to.include({ sha: loose, ref: 'gone', status: 'success' });
  });

  it('pending creates an external pipeline for the first branch holding the commit; later posts move the same status', async () => {
    const first = await post({ state: 'pending' }, dev.token, 'master');
    expect(first.status, first.text).to.equal(201);
    expect(Object.keys(first.body)).to.deep.equal(STATUS_KEYS);
    expectStatus(first.body);
    expect(first.body).to.include({
      sha,
      ref: 'master',
      status: 'pending',
      name: 'default',
      target_url: null,
      description: null,
      allow_failure: false,
      coverage: null,
      started_at: null,
      finished_at: null,
    });
    expect(first.body.author).to.include({ id: dev.user.id, username: 'dev' });
    expect(first.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expectSchema(first.body.author, 'public_api/v4/user/basic.json');
    const [pipeline] = await pipelines();
    expect(pipeline).to.deep.equal({ id: pipeline.id, sha, ref: 'master', status: 'pending' });
    const row = await s.db('ci_pipelines').where({ id: pipeline.id }).first();
    expect(row).to.include({ source: 'external', user_id: dev.user.id });

    const running = await post({ state: 'running', context: 'default', description: 'checking', coverage: 12.5, target_url: 'https://ci.example.com/b/1' });
    expect(running.status, running.text).to.equal(201);
    expect(running.body).to.include({ id: first.body.id, status: 'running', description: 'checking', coverage: 12.5, target_url: 'https://ci.example.com/b/1' });
    expect(running.body.started_at).to.be.a('string');
    expect((await pipelines())[0].status).to.equal('running');

    // A refused transition answers state_machines' message; the attributes were saved first, as in 10.8.
    const again = await post({ state: 'running', description: 'still checking' });
    expect(again.status).to.equal(400);
    expect(again.body).to.deep.equal({ message: 'Cannot transition status via :run from :running' });
    const back = await post({ state: 'pending' });
    expect(back.status).to.equal(400);
    expect(back.body).to.deep.equal({ message: 'Cannot transition status via :enqueue from :running' });

    const done = await post({ state: 'success', name: 'default' });
    expect(done.status, done.text).to.equal(201);
    expect(done.body).to.include({ id: first.body.id, status: 'success', description: 'still checking', coverage: 12.5 });
    expect(done.body.finished_at).to.be.a('string');
    const [after] = await pipelines();
    expect(after).to.deep.equal({ id: pipeline.id, sha, ref: 'master', status: 'success' });
    const detail = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}`, { token: owner.token })).body;
    expect(detail.finished_at).to.be.a('string');
    expect(detail.coverage).to.equal('12.50'); // Ci::Pipeline#coverage: its statuses' mean
  });

  it("a pipeline's coverage is the mean of its latest statuses' as Ruby's '%.2f' writes it", () => {
    expect(pipelineCoverage([])).to.equal(null);
    expect(pipelineCoverage([80, 90.5])).to.equal('85.25');
    expect(pipelineCoverage([1, 2])).to.equal('1.50');
    expect(pipelineCoverage([1 / 3])).to.equal('0.33');
    expect(pipelineCoverage([0.125, 0.125])).to.equal('0.12'); // an exact tie: to even
    expect(pipelineCoverage([0.375])).to.equal('0.38');
    expect(pipelineCoverage([2.675])).to.equal('2.67'); // below the tie in binary
  });

  it('posting again after a completion adds a new status and retires the old one (GitLab update_retried)', async () => {
    const failed = await post({ state: 'failed' });
    expect(failed.status, failed.text).to.equal(201);
    expect(failed.body).to.include({ status: 'failed', name: 'default', ref: 'master', started_at: null });
    const latest = (await list()).body;
    expect(latest.map((x: any) => [x.id, x.status])).to.deep.equal([[failed.body.id, 'failed']]);
    const all = (await list({ all: 'true' })).body;
    expect(all.map((x: any) => x.status)).to.deep.equal(['success', 'failed']);
    expect((await pipelines())[0].status).to.equal('failed');
  });

  it('coverage is kept as a double; target_url takes http, https, ssh and git URIs', async () => {
    const huge = await post({ state: 'success', name: 'huge', coverage: 1e39, target_url: 'git://example.com/repo.git' });
    expect(huge.status, huge.text).to.equal(201);
    expect(huge.body).to.include({ coverage: 1e39, target_url: 'git://example.com/repo.git' });
    const fine = await post({ state: 'success', name: 'fine', coverage: '80.1', target_url: 'ssh://git@example.com:22/a%20b?x=1#top' });
    expect(fine.status, fine.text).to.equal(201);
    expect(fine.body).to.include({ coverage: 80.1, target_url: 'ssh://git@example.com:22/a%20b?x=1#top' });
    const blankUrl = await post({ state: 'success', name: 'blank', target_url: ' ', description: '' });
    expect(blankUrl.body).to.include({ target_url: null, description: null });
    for (const bad of ['javascript:alert(1)', 'http://a b', 'HTTP://x.org', 'http:', 'http://x.org/<tag>']) {
      const r = await post({ state: 'success', name: 'bad', target_url: bad });
      expect(r.status, bad).to.equal(400);
      expect(r.body).to.deep.equal({ message: { target_url: ['must be a valid URL'] } });
    }
  });

  it('from pending to each other state, the same status moves; from created straight to each', async () => {
    for (const state of ['running', 'success', 'failed', 'canceled']) {
      const a = await post({ state: 'pending', name: `from-pending-${state}` });
      const b = await post({ state, name: `from-pending-${state}` });
      expect(b.status, b.text).to.equal(201);
      expect(b.body).to.include({ id: a.body.id, status: state });
      const c = await post({ state, name: `direct-${state}` });
      expect(c.status, c.text).to.equal(201);
      expect(c.body.status).to.equal(state);
      expect(c.body.started_at === null).to.equal(state !== 'running');
      expect(c.body.finished_at === null).to.equal(state === 'running');
    }
  });

  it('concurrent posts for a new commit share one external pipeline; a concurrent repeat is refused', async () => {
    const fresh = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'race.txt', content: 'r' }], { token: owner.token });
    const replies = await Promise.all([0, 1, 2, 3, 4].map((i) => post({ state: 'running', name: `job-${i}` }, dev.token, fresh)));
    expect(replies.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201]);
    const rows = await s.db('ci_pipelines').where({ project_id: project.id, sha: fresh });
    expect(rows.map((r: any) => r.source)).to.deep.equal(['external']);
    const twice = await Promise.all([0, 1].map(() => post({ state: 'pending', name: 'once' }, dev.token, fresh)));
    expect(twice.map((r) => r.status).sort()).to.deep.equal([201, 400]);
    expect(twice.find((r) => r.status === 400)!.body).to.deep.equal({ message: 'Cannot transition status via :enqueue from :pending' });
  });

  it('another user posting the same name gets a status of their own', async () => {
    const mine = await post({ state: 'running', name: 'shared' });
    const theirs = await post({ state: 'running', name: 'shared' }, owner.token);
    expect(theirs.status, theirs.text).to.equal(201);
    expect(theirs.body.id).to.not.equal(mine.body.id);
    expect(theirs.body.author.username).to.equal('owner');
  });
});

describe('Commit statuses: lists, permissions, a real pipeline and the commit', function () {
  this.timeout(120_000);
  const { s, owner, dev, reporter, guest, stranger } = useServerWithRoles();
  let project: any;
  let sha: string;
  const post = (json: Record<string, unknown>, token = dev.token, at = sha) => s.post(`/projects/${project.id}/statuses/${at}`, { token, json });
  const list = (query: Record<string, string | number> = {}, token: string | null = reporter.token, at = sha, p = project) =>
    s.get(`/projects/${p.id}/repository/commits/${at}/statuses`, { token, query });
  const ids = (r: { body: any[] }) => r.body.map((x) => x.id);

  before(async () => {
    project = await createProject(s, owner.token, { name: 'ext-list', visibility: 'private' });
    await addRoleMembers(s, project.id, { dev, reporter, guest });
    sha = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hi' }], { token: owner.token });
    await createBranch(s, project.id, 'develop', 'master', owner.token);
  });

  it('GET refuses as 10.8 does: 401, 404 for a private project, 403 for a guest, 404 Commit', async () => {
    const cases: [Promise<any>, number, unknown][] = [
      [list({}, null), 401, { message: '401 Unauthorized' }],
      [list({}, stranger.token), 404, { message: '404 Project Not Found' }],
      [list({}, guest.token), 403, { message: '403 Forbidden' }],
      [list({}, reporter.token, 'f'.repeat(40)), 404, { message: '404 Commit Not Found' }],
    ];
    for (const [reply, status, body] of cases) {
      const r = await reply;
      expect(r.status, r.text).to.equal(status);
      expect(r.body).to.deep.equal(body);
    }
    const none = await list();
    expect(none.status).to.equal(200);
    expect(none.body).to.deep.equal([]);
  });

  it('lists the latest statuses oldest first, by ref, stage and name, all with `all`, in pages', async () => {
    const a = (await post({ state: 'running', ref: 'master' })).body;
    const b = (await post({ state: 'success', ref: 'master', name: 'coverage' })).body;
    const c = (await post({ state: 'running', ref: 'develop' })).body;
    const d = (await post({ state: 'success', ref: 'develop', name: 'coverage' })).body;
    const e = (await post({ state: 'failed', ref: 'master', name: 'coverage' })).body; // retires b
    expect(ids(await list())).to.deep.equal([a.id, c.id, d.id, e.id]);
    expect(ids(await list({ all: 1 }))).to.deep.equal([a.id, b.id, c.id, d.id, e.id]);
    expect(ids(await list({ all: 'no' }))).to.deep.equal([a.id, c.id, d.id, e.id]);
    expect(ids(await list({ ref: 'develop' }))).to.deep.equal([c.id, d.id]);
    expect(ids(await list({ name: 'coverage' }))).to.deep.equal([d.id, e.id]);
    expect(ids(await list({ stage: 'external', ref: 'master' }))).to.deep.equal([a.id, e.id]);
    expect(ids(await list({ stage: 'test' }))).to.deep.equal([]);
    // 10.8 matches the pipelines' sha with the path's text: a branch name finds the commit, lists nothing.
    expect((await list({}, reporter.token, 'master')).body).to.deep.equal([]);
    const page = await list({ per_page: 2, page: 2 });
    expect(ids(page)).to.deep.equal([d.id, e.id]);
    expect(page.headers.get('x-total')).to.equal('4');
    expect(page.headers.get('x-total-pages')).to.equal('2');
    expect(page.headers.get('x-page')).to.equal('2');
    expect(page.headers.get('x-per-page')).to.equal('2');
    expect(page.headers.get('x-prev-page')).to.equal('1');
    expect(page.headers.get('x-next-page')).to.equal('');
    expect(page.headers.get('link')).to.include('rel="prev"').and.include('rel="first"').and.include('rel="last"');
    const first = (await list({})).body[0];
    expect(Object.keys(first)).to.deep.equal(STATUS_KEYS);
    (await list({ all: 'true' })).body.forEach(expectStatus);
    expect(first).to.include({ id: a.id, sha, ref: 'master', status: 'running', name: 'default', allow_failure: false });
  });

  it('a public project: any signed-in user reads statuses, only developers post; an archived one takes none', async () => {
    const open = await createProject(s, owner.token, { name: 'ext-public', visibility: 'public' });
    const at = await commitFiles(s, open.id, 'master', [{ action: 'create', file_path: 'a.txt', content: 'a' }], { token: owner.token });
    const posted = await s.post(`/projects/${open.id}/statuses/${at}`, { token: owner.token, json: { state: 'success' } });
    expect(posted.status, posted.text).to.equal(201);
    const seen = await list({}, stranger.token, at, open);
    expect(seen.status).to.equal(200);
    expect(ids(seen)).to.deep.equal([posted.body.id]);
    expect((await list({}, null, at, open)).status).to.equal(401);
    const refused = await s.post(`/projects/${open.id}/statuses/${at}`, { token: stranger.token, json: { state: 'success' } });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.equal({ message: '403 Forbidden' });
    expect((await s.post(`/projects/${open.id}/archive`, { token: owner.token })).status).to.equal(201);
    const archived = await s.post(`/projects/${open.id}/statuses/${at}`, { token: owner.token, json: { state: 'success' } });
    expect(archived.status).to.equal(403);
    expect((await list({}, owner.token, at, open)).status).to.equal(200);
  });

  it("the runner's pickup passes over a pending external status", async () => {
    const pending = await post({ state: 'pending', name: 'waiting' });
    expect(pending.status, pending.text).to.equal(201);
    expect(await claimNextBuild(s.db, 'test:1:0', 60_000)).to.equal(null);
    expect((await s.db('ci_builds').where({ id: pending.body.id }).first()).status).to.equal('pending');
  });

  it('an external status joins the push pipeline of its ref and commit and counts in its status, never as a job', async () => {
    const ci = await createProject(s, owner.token, { name: 'ext-pipeline', visibility: 'private' });
    await addRoleMembers(s, ci.id, { dev });
    const ciFile = 'build:\n  script: echo hi\n';
    const at = await commitFiles(s, ci.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: ciFile }], { token: owner.token });
    await s.drainJobs();
    const get = async (path: string) => (await s.get(`/projects/${ci.id}${path}`, { token: owner.token })).body;
    const statusTo = (json: Record<string, unknown>) => s.post(`/projects/${ci.id}/statuses/${at}`, { token: dev.token, json });
    const [pipeline] = await get('/pipelines');
    expect(pipeline).to.include({ sha: at, ref: 'master', status: 'pending' });
    const [build] = await get(`/pipelines/${pipeline.id}/jobs`);

    const ext = await statusTo({ state: 'success', name: 'ext' });
    expect(ext.status, ext.text).to.equal(201);
    expect(ext.body.ref).to.equal('master');
    expect(await get('/pipelines')).to.deep.equal([{ id: pipeline.id, sha: at, ref: 'master', status: 'running' }]);
    expect((await get('/jobs')).map((j: any) => j.id)).to.deep.equal([build.id]);
    expect((await get(`/pipelines/${pipeline.id}/jobs`)).map((j: any) => j.id)).to.deep.equal([build.id]);
    const asJob = await s.get(`/projects/${ci.id}/jobs/${ext.body.id}`, { token: owner.token });
    expect(asJob.status).to.equal(404);
    expect(asJob.body).to.deep.equal({ message: '404 Not found' });
    const both = await get(`/repository/commits/${at}/statuses`);
    expect(both.map((x: any) => [x.name, x.status])).to.deep.equal([
      ['build', 'pending'],
      ['ext', 'success'],
    ]);
    both.forEach(expectStatus);

    expect((await s.post(`/projects/${ci.id}/jobs/${build.id}/cancel`, { token: owner.token })).status).to.equal(201);
    expect((await get(`/pipelines/${pipeline.id}`)).status).to.equal('canceled'); // success + canceled
    expect((await statusTo({ state: 'failed', name: 'ext2' })).status).to.equal(201);
    expect((await get(`/pipelines/${pipeline.id}`)).status).to.equal('failed');

    // Retry re-runs the pipeline's jobs (Ci::Build) only: the external statuses stay as posted.
    const retried = await s.post(`/projects/${ci.id}/pipelines/${pipeline.id}/retry`, { token: owner.token });
    expect(retried.status, retried.text).to.equal(201);
    expect(retried.body.status).to.equal('running'); // pending + success + failed
    expect((await get(`/pipelines/${pipeline.id}/jobs`)).map((j: any) => [j.name, j.status])).to.deep.equal([
      ['build', 'pending'],
      ['build', 'canceled'],
    ]);
    expect((await get(`/repository/commits/${at}/statuses`)).map((x: any) => [x.name, x.status])).to.deep.equal([
      ['ext', 'success'],
      ['ext2', 'failed'],
      ['build', 'pending'],
    ]);
    expect(await s.db('ci_builds').where({ pipeline_id: pipeline.id, type: 'GenericCommitStatus' }).count({ n: '*' }).first()).to.satisfy((r: any) => Number(r.n) === 2);

    const commit = await get(`/repository/commits/${at}`);
    expect(commit.status).to.equal('running');
    expect(commit.last_pipeline).to.deep.equal({ id: pipeline.id, sha: at, ref: 'master', status: 'running' });
    expectSchema(commit, 'public_api/v4/commit/detail.json');
  });

  it("a commit's last_pipeline is its newest pipeline in the project (any ref); none gives nulls", async () => {
    const [develop] = (await s.get(`/projects/${project.id}/pipelines`, { token: owner.token, query: { ref: 'develop' } })).body;
    const commit = (await s.get(`/projects/${project.id}/repository/commits/${sha}`, { token: reporter.token })).body;
    expect(commit.last_pipeline).to.deep.equal({ id: develop.id, sha, ref: 'develop', status: develop.status });
    expect(commit.status).to.equal(develop.status);
    expectSchema(commit, 'public_api/v4/commit/detail.json');
    const later = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'b.txt', content: 'b' }], { token: owner.token });
    const bare = (await s.get(`/projects/${project.id}/repository/commits/${later}`, { token: reporter.token })).body;
    expect(bare).to.include({ status: null, last_pipeline: null });
    expectSchema(bare, 'public_api/v4/commit/detail.json');
  });
});
