// Who may read and run a project's jobs and pipelines, as GitLab 10.8's ProjectPolicy,
// Ci::BuildPolicy and Ci::PipelinePolicy decide, over the API (lib/api/jobs.rb,
// job_artifacts.rb, pipelines.rb) — and the namespace check of POST /projects/import:
// - jobs (one job, its trace, its artifacts) are read by reporters, and by every reader of the
//   project only while its jobs are public (`public_jobs`): a non-member of an internal project
//   is refused them when they are not; a guest of a private project reads them when they are;
// - pipelines are read by every reader of a public or internal project, by reporters, and by
//   guests while jobs are public;
// - nobody reads or runs jobs while the project's jobs are disabled (pipelines stay readable);
// - a protected branch's jobs and pipelines run only for who may push or merge to it (Gitlab::
//   UserAccess#can_update_branch?): a developer gets 400 creating a pipeline on protected
//   `master`, 403 retrying, playing or cancelling its jobs and retrying the pipeline;
// - importing into a namespace the caller may not read is 404, as if it did not exist.
// (GitLab 10.8.7 lists a project's jobs to any reader of it; Wharf asks read_build for the job
// lists too, as GitLab's own later fix of jobs.rb does, so those lists are checked as jobs.)
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { commitFiles, createBranch, createProject } from '../helpers/projects.js';
import { addRoleMembers, useServerWithRoles, type Account } from '../helpers/roles.js';
import { importArchive, tarGz } from '../helpers/archives.js';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';
import { artifactsFile, traceFile } from '../../src/services/ci/runner/storage.js';

const CI = `stages: [build, deploy]
build:
  stage: build
  script: make
deploy:
  stage: deploy
  script: ./deploy
  when: manual
`;
const FORBIDDEN = { message: '403 Forbidden' };
const SECRET = 'DEPLOY_TOKEN=s3cr3t\n';

interface CiProject {
  id: number;
  pipelineId: number;
  build: number;
  deploy: number;
}

describe('CI permissions as GitLab 10.8', function () {
  this.timeout(120_000);
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles('ci-owner');
  let counter = 0;

  /** The pipeline's jobs by name. */
  async function jobsOf(projectId: number, pipelineId: number): Promise<Record<string, any>> {
    const jobs = (await s.get(`/projects/${projectId}/pipelines/${pipelineId}/jobs`, { token: owner.token })).body as any[];
    return Object.fromEntries(jobs.map((j) => [j.name, j]));
  }

  /**
   * A project of the owner's (its members master, dev, reporter and guest) with CI on a
   * protected `master` (protected by the owner's first push): its pipeline's `build` job
   * succeeded with a trace holding a secret and an artifacts archive; `deploy` waits (manual).
   */
  async function ciProject(json: Record<string, unknown>): Promise<CiProject> {
    const project = await createProject(s, owner.token, { name: `ci-perm-${++counter}`, ...json });
    await addRoleMembers(s, project.id, { master, dev, reporter, guest });
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }], { token: owner.token });
    await s.drainJobs();
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`, { token: owner.token })).body;
    const jobs = await jobsOf(project.id, pipeline.id);
    const build = jobs.build.id as number;
    const trace = traceFile(s.deps, project.id, build);
    fs.mkdirSync(path.dirname(trace), { recursive: true });
    fs.writeFileSync(trace, SECRET);
    const archive = artifactsFile(s.deps, project.id, build);
    fs.mkdirSync(path.dirname(archive), { recursive: true });
    fs.writeFileSync(archive, 'PK\u0005\u0006' + '\u0000'.repeat(18));
    await s.db('ci_builds').where({ id: build }).update({ artifacts_file: 'artifacts.zip', artifacts_size: 22 });
    await transitionBuild(s.db, build, 'running');
    await transitionBuild(s.db, build, 'success');
    // The ref's artifacts come from its latest successful pipeline (the manual job does not hold it back).
    await s.db('ci_pipelines').where({ id: pipeline.id }).update({ status: 'success' });
    return { id: project.id, pipelineId: pipeline.id, build, deploy: jobs.deploy.id };
  }

  /** The job routes that read one job (or the ref's artifacts), and the job lists. */
  function jobReads(p: CiProject): string[] {
    return [
      `/projects/${p.id}/jobs/${p.build}`,
      `/projects/${p.id}/jobs/${p.build}/trace`,
      `/projects/${p.id}/jobs/${p.build}/artifacts`,
      `/projects/${p.id}/jobs/artifacts/master/download?job=build`,
      `/projects/${p.id}/jobs`,
      `/projects/${p.id}/pipelines/${p.pipelineId}/jobs`,
    ];
  }

  function pipelineReads(p: CiProject): string[] {
    return [`/projects/${p.id}/pipelines`, `/projects/${p.id}/pipelines/${p.pipelineId}`];
  }

  async function expectStatus(who: Account, urls: string[], status: number): Promise<void> {
    for (const url of urls) {
      const r = await s.get(url, { token: who.token });
      expect(r.status, `${who.user.username} GET ${url}`).to.equal(status);
      if (status === 403) expect(r.body, url).to.deep.equal(FORBIDDEN);
    }
  }

  it("answers 401 to anonymous readers of pipelines and jobs (authenticate! first), but serves a public project's artifacts", async () => {
    const p = await ciProject({ visibility: 'public' });
    const paths = [
      `/projects/${p.id}/pipelines`,
      `/projects/${p.id}/pipelines/${p.pipelineId}`,
      `/projects/${p.id}/pipelines/${p.pipelineId}/jobs`,
      `/projects/${p.id}/jobs`,
      `/projects/${p.id}/jobs/${p.build}`,
      `/projects/${p.id}/jobs/${p.build}/trace`,
    ];
    for (const path of paths) {
      const r = await s.get(path, { token: null });
      expect([r.status, r.body], path).to.deep.equal([401, { message: '401 Unauthorized' }]);
    }
    // lib/api/job_artifacts.rb: authenticate_non_get!, so a public project's artifacts download anonymously.
    expect((await s.get(`/projects/${p.id}/jobs/${p.build}/artifacts`, { token: null })).status).to.equal(200);
    expect((await s.get(`/projects/${p.id}/jobs/artifacts/master/download?job=build`, { token: null })).status).to.equal(200);
  });

  describe('reading jobs and pipelines (read_build, read_pipeline)', () => {
    it("refuses an internal project's jobs, traces and artifacts to non-members while its jobs are not public (403)", async () => {
      const p = await ciProject({ visibility: 'internal', public_jobs: false });
      await expectStatus(stranger, jobReads(p), 403);
      await expectStatus(guest, jobReads(p), 403);
      // Pipelines stay readable to every reader of an internal project (public_access).
      await expectStatus(stranger, pipelineReads(p), 200);
      await expectStatus(guest, pipelineReads(p), 200);
      // Reporters (and admins) read jobs whatever public_jobs says.
      await expectStatus(reporter, [...jobReads(p), ...pipelineReads(p)], 200);
      await expectStatus(admin, jobReads(p), 200);
      const trace = await s.get(`/projects/${p.id}/jobs/${p.build}/trace`, { token: reporter.token });
      expect(trace.text).to.equal(SECRET);
    });

    it('gives the jobs of an internal project with public jobs to any signed-in reader', async () => {
      const p = await ciProject({ visibility: 'internal', public_jobs: true });
      await expectStatus(stranger, [...jobReads(p), ...pipelineReads(p)], 200);
      const trace = await s.get(`/projects/${p.id}/jobs/${p.build}/trace`, { token: stranger.token });
      expect(trace.text).to.equal(SECRET);
    });

    it("refuses a public project's jobs to non-members and guests while they are not public, not its pipelines", async () => {
      const p = await ciProject({ visibility: 'public', public_jobs: false });
      await expectStatus(stranger, jobReads(p), 403);
      await expectStatus(guest, jobReads(p), 403);
      await expectStatus(stranger, pipelineReads(p), 200);
      await expectStatus(reporter, jobReads(p), 200);
    });

    it('gives a guest of a private project its pipelines, jobs, traces and artifacts while jobs are public (the default)', async () => {
      const p = await ciProject({ visibility: 'private' });
      expect((await s.get(`/projects/${p.id}`, { token: owner.token })).body.public_jobs).to.equal(true);
      await expectStatus(guest, [...jobReads(p), ...pipelineReads(p)], 200);
      const trace = await s.get(`/projects/${p.id}/jobs/${p.build}/trace`, { token: guest.token });
      expect(trace.text).to.equal(SECRET);
      const artifacts = await s.get(`/projects/${p.id}/jobs/${p.build}/artifacts`, { token: guest.token });
      expect(artifacts.headers.get('content-disposition')).to.equal('attachment; filename=artifacts.zip');
      // Reading is not running: a guest still may not retry, play or cancel.
      const retry = await s.post(`/projects/${p.id}/jobs/${p.build}/retry`, { token: guest.token });
      expect([retry.status, retry.body]).to.deep.equal([403, FORBIDDEN]);
      const missing = await s.get(`/projects/${p.id}/pipelines/${p.pipelineId}`, { token: stranger.token });
      expect([missing.status, missing.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
    });

    it('refuses a guest of a private project its pipelines and jobs while jobs are not public', async () => {
      const p = await ciProject({ visibility: 'private', public_jobs: false });
      await expectStatus(guest, [...jobReads(p), ...pipelineReads(p)], 403);
      await expectStatus(reporter, [...jobReads(p), ...pipelineReads(p)], 200);
    });

    it('refuses every job to everyone, admins too, while the project has its jobs disabled; pipelines stay readable', async () => {
      const p = await ciProject({ visibility: 'private' });
      expect((await s.put(`/projects/${p.id}`, { token: owner.token, json: { jobs_enabled: false } })).status).to.equal(200);
      await expectStatus(reporter, jobReads(p), 403);
      await expectStatus(admin, jobReads(p), 403);
      await expectStatus(reporter, pipelineReads(p), 200);
      const create = await s.post(`/projects/${p.id}/pipeline`, { token: master.token, json: { ref: 'master' } });
      expect([create.status, create.body]).to.deep.equal([403, FORBIDDEN]);
      const retry = await s.post(`/projects/${p.id}/jobs/${p.build}/retry`, { token: master.token });
      expect([retry.status, retry.body]).to.deep.equal([403, FORBIDDEN]);
    });
  });

  describe('running jobs of a protected branch (Ci::BuildPolicy, Ci::PipelinePolicy)', () => {
    let p: CiProject;
    before(async () => {
      p = await ciProject({ visibility: 'private' });
      await createBranch(s, p.id, 'feature', 'master', owner.token);
    });

    it('answers 400 to a developer creating a pipeline on protected master, and stores nothing', async () => {
      const before = (await s.get(`/projects/${p.id}/pipelines`, { token: owner.token })).body.length;
      const r = await s.post(`/projects/${p.id}/pipeline`, { token: dev.token, json: { ref: 'master' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { base: ["Insufficient permissions for protected ref 'master'"] } });
      expect((await s.get(`/projects/${p.id}/pipelines`, { token: owner.token })).body.length).to.equal(before);
      // A reporter is refused the route itself; a missing ref is still "Reference not found".
      const rep = await s.post(`/projects/${p.id}/pipeline`, { token: reporter.token, json: { ref: 'master' } });
      expect([rep.status, rep.body]).to.deep.equal([403, FORBIDDEN]);
      const nope = await s.post(`/projects/${p.id}/pipeline`, { token: dev.token, json: { ref: 'nope' } });
      expect([nope.status, nope.body]).to.deep.equal([400, { message: { base: ['Reference not found'] } }]);
    });

    it('lets the developer run pipelines of an unprotected branch, and masters those of master', async () => {
      const feature = await s.post(`/projects/${p.id}/pipeline`, { token: dev.token, json: { ref: 'feature' } });
      expect(feature.status, feature.text).to.equal(201);
      expect(feature.body).to.include({ ref: 'feature', status: 'pending' });
      const jobs = await jobsOf(p.id, feature.body.id);
      const cancel = await s.post(`/projects/${p.id}/jobs/${jobs.build.id}/cancel`, { token: dev.token });
      expect([cancel.status, cancel.body.status]).to.deep.equal([201, 'canceled']);
      const retry = await s.post(`/projects/${p.id}/jobs/${jobs.build.id}/retry`, { token: dev.token });
      expect([retry.status, retry.body.status]).to.deep.equal([201, 'pending']);
      const retryPipeline = await s.post(`/projects/${p.id}/pipelines/${feature.body.id}/retry`, { token: dev.token });
      expect(retryPipeline.status).to.equal(201);
      // No tag is protected: a tag's pipeline is the developer's (can_create_tag? is push_code).
      expect((await s.post(`/projects/${p.id}/repository/tags`, { token: owner.token, json: { tag_name: 'v1', ref: 'master' } })).status).to.equal(201);
      const tag = await s.post(`/projects/${p.id}/pipeline`, { token: dev.token, json: { ref: 'v1' } });
      expect(tag.status, tag.text).to.equal(201);
      expect(tag.body).to.include({ ref: 'v1', tag: true });
      const onMaster = await s.post(`/projects/${p.id}/pipeline`, { token: master.token, json: { ref: 'master' } });
      expect(onMaster.status, onMaster.text).to.equal(201);
    });

    it("answers 403 to a developer retrying, playing or cancelling a protected branch's jobs, or retrying its pipeline", async () => {
      const retry = await s.post(`/projects/${p.id}/jobs/${p.build}/retry`, { token: dev.token });
      expect([retry.status, retry.body]).to.deep.equal([403, FORBIDDEN]);
      const play = await s.post(`/projects/${p.id}/jobs/${p.deploy}/play`, { token: dev.token });
      expect([play.status, play.body]).to.deep.equal([403, FORBIDDEN]);
      const cancel = await s.post(`/projects/${p.id}/jobs/${p.deploy}/cancel`, { token: dev.token });
      expect([cancel.status, cancel.body]).to.deep.equal([403, FORBIDDEN]);
      const retryPipeline = await s.post(`/projects/${p.id}/pipelines/${p.pipelineId}/retry`, { token: dev.token });
      expect([retryPipeline.status, retryPipeline.body]).to.deep.equal([403, FORBIDDEN]);
      const jobs = await jobsOf(p.id, p.pipelineId);
      expect(
        Object.values(jobs)
          .map((j: any) => [j.name, j.status])
          .sort(),
      ).to.deep.equal([
        ['build', 'success'],
        ['deploy', 'manual'],
      ]);
      // The job is looked for before it is judged: a missing one is 404.
      const missing = await s.post(`/projects/${p.id}/jobs/999999/retry`, { token: dev.token });
      expect([missing.status, missing.body]).to.deep.equal([404, { message: '404 Not found' }]);
    });

    it('lets a master (and an admin) retry and play them', async () => {
      const play = await s.post(`/projects/${p.id}/jobs/${p.deploy}/play`, { token: master.token });
      expect([play.status, play.body.status]).to.deep.equal([200, 'pending']);
      const retry = await s.post(`/projects/${p.id}/jobs/${p.build}/retry`, { token: admin.token });
      expect([retry.status, retry.body.status]).to.deep.equal([201, 'pending']);
    });

    it('play asks read_build first: a reporter gets 404 for a missing job and 403 for a real one', async () => {
      const missing = await s.post(`/projects/${p.id}/jobs/999999/play`, { token: reporter.token });
      expect([missing.status, missing.body]).to.deep.equal([404, { message: '404 Not found' }]);
      const real = await s.post(`/projects/${p.id}/jobs/${p.deploy}/play`, { token: reporter.token });
      expect([real.status, real.body]).to.deep.equal([403, FORBIDDEN]);
    });

    it('lets developers run a protected branch whose rule lets developers merge (can_merge_to_branch?)', async () => {
      const rule = await s.post(`/projects/${p.id}/protected_branches`, { token: owner.token, json: { name: 'release*', push_access_level: 40, merge_access_level: 30 } });
      expect(rule.status, rule.text).to.equal(201);
      await createBranch(s, p.id, 'release-1', 'master', owner.token);
      const r = await s.post(`/projects/${p.id}/pipeline`, { token: dev.token, json: { ref: 'release-1' } });
      expect(r.status, r.text).to.equal(201);
      const jobs = await jobsOf(p.id, r.body.id);
      const cancel = await s.post(`/projects/${p.id}/jobs/${jobs.build.id}/cancel`, { token: dev.token });
      expect([cancel.status, cancel.body.status]).to.deep.equal([201, 'canceled']);
    });

    it("lets a developer cancel a protected branch's pipeline as a whole, as 10.8's cancel_running does", async () => {
      const r = await s.post(`/projects/${p.id}/pipelines/${p.pipelineId}/cancel`, { token: dev.token });
      expect(r.status, r.text).to.equal(200);
    });
  });

  describe('POST /projects/import into a namespace the caller may not read', () => {
    const archive = tarGz([{ name: 'VERSION', body: '0.2.2' }]);

    it('answers 404 Namespace Not Found for a private group as for a missing one, 400 to a member who may not create in it', async () => {
      const group = await s.post('/groups', { token: owner.token, json: { name: 'ci-secret', path: 'ci-secret', visibility: 'private' } });
      expect(group.status, group.text).to.equal(201);
      const hidden = await importArchive(s, stranger.token, archive, { path: 'x', namespace: 'ci-secret' });
      const missing = await importArchive(s, stranger.token, archive, { path: 'x', namespace: 'ci-no-such-group' });
      expect([hidden.status, hidden.body]).to.deep.equal([404, { message: '404 Namespace Not Found' }]);
      expect([missing.status, missing.body]).to.deep.equal([404, { message: '404 Namespace Not Found' }]);
      const byId = await importArchive(s, stranger.token, archive, { path: 'x', namespace: String(group.body.id) });
      expect([byId.status, byId.body]).to.deep.equal([404, { message: '404 Namespace Not Found' }]);
      const someoneElses = await importArchive(s, stranger.token, archive, { path: 'x', namespace: owner.user.username });
      expect([someoneElses.status, someoneElses.body]).to.deep.equal([404, { message: '404 Namespace Not Found' }]);
      expect((await s.post(`/groups/${group.body.id}/members`, { token: owner.token, json: { user_id: guest.user.id, access_level: 10 } })).status).to.equal(201);
      const member = await importArchive(s, guest.token, archive, { path: 'x', namespace: 'ci-secret' });
      expect([member.status, member.body]).to.deep.equal([400, { message: 'Namespace is not valid' }]);
    });

    it('answers 404 for a public group the caller is not a member of (read_namespace is membership)', async () => {
      const group = await s.post('/groups', { token: owner.token, json: { name: 'ci-open', path: 'ci-open', visibility: 'public' } });
      expect(group.status, group.text).to.equal(201);
      const r = await importArchive(s, stranger.token, archive, { path: 'x', namespace: 'ci-open' });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Namespace Not Found' }]);
    });
  });
});
