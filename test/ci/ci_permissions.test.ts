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
import { commitFiles, createProject } from '../helpers/projects.js';
import { addRoleMembers, useServerWithRoles, type Account } from '../helpers/roles.js';
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

    it("gives a guest of a private project its pipelines, jobs, traces and artifacts while jobs are public (the default)", async () => {
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
});
