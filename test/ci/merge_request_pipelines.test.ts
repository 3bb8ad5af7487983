// Merge requests and CI (GitLab 10.8): GET .../merge_requests/:iid/pipelines (the source
// branch's pipelines of the merge request's commits), only_allow_merge_if_pipeline_succeeds
// (405 unless the head pipeline succeeded; none at all passes), and merge_when_pipeline_succeeds
// waiting for an active head pipeline, merged by the waiting user when it succeeds, left open
// when it fails, reset by a push and by cancel. Pipelines come from real .gitlab-ci.yml commits;
// their jobs are moved as a runner would move them (transitionBuild).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { projectWithRoles, type Account } from '../helpers/roles.js';
import { openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { git } from '../helpers/bare_git.js';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';

const CI = 'test:\n  script: echo ok\n';

interface Project {
  id: number;
  path: string;
  dir: string;
}

describe('Merge requests and pipelines', function () {
  this.timeout(60000);
  let s: TestServer;
  let owner: Account;
  let dev: Account;
  let lead: Account;
  let reporter: Account;
  let stranger: Account;

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('mia');
    dev = await s.createUser('dora');
    lead = await s.createUser('lena');
    reporter = await s.createUser('remy');
    stranger = await s.createUser('sten');
  });
  after(async () => {
    await s.close();
  });

  let counter = 0;
  /** A private project of `mia` with a .gitlab-ci.yml on master; lena a master, dora a developer, remy a reporter. */
  async function project(settings: Record<string, unknown> = {}, ci: string | null = CI): Promise<Project> {
    const r = await projectWithRoles(s, owner, { master: lead, dev, reporter }, { name: `cimr${++counter}`, visibility: 'private', ...settings });
    const p = { id: r.id, path: r.path_with_namespace, dir: repoDir(s, r.path_with_namespace) };
    await files(p, 'master', { 'README.md': 'hello\n', ...(ci === null ? {} : { '.gitlab-ci.yml': ci }) }, 'Initial');
    return p;
  }

  /** One commit through the API; the pipelines it starts are created. */
  async function files(p: Project, branch: string, content: Record<string, string | null>, message = 'change', start?: string): Promise<string> {
    const sha = await writeFiles(s, p, branch, content, { message, start, token: owner.token });
    await s.drainJobs();
    return sha;
  }

  const openMr = (p: Project, source: string) => openMergeRequest(s, p.id, { source_branch: source, target_branch: 'master', title: `Merge ${source}` }, owner.token);

  const merge = (p: Project, iid: number, json: Record<string, unknown> = {}, token = lead.token) => s.put(`/projects/${p.id}/merge_requests/${iid}/merge`, { token, json });

  const showMr = async (p: Project, iid: number) => (await s.get(`/projects/${p.id}/merge_requests/${iid}`, { token: owner.token })).body;

  async function pipelinesOf(p: Project, ref: string): Promise<any[]> {
    return (await s.get(`/projects/${p.id}/pipelines?ref=${ref}`, { token: owner.token })).body;
  }

  /** Moves every job of the pipeline still pending as a runner would: running, then `to`. */
  async function finish(pipelineId: number, to: 'success' | 'failed'): Promise<void> {
    const builds = await s.db('ci_builds').where({ pipeline_id: pipelineId, status: 'pending' });
    expect(builds.length).to.be.greaterThan(0);
    for (const b of builds) {
      expect(await transitionBuild(s.db, b.id, 'running')).to.not.equal(null);
      expect(await transitionBuild(s.db, b.id, to)).to.not.equal(null);
    }
    const row = await s.db('ci_pipelines').where({ id: pipelineId }).first();
    expect(row.status).to.equal(to);
    await s.drainJobs();
  }

  async function systemNotes(mrId: number): Promise<string[]> {
    const rows = await s.db('notes').where({ noteable_type: 'MergeRequest', noteable_id: mrId, system: true }).orderBy('id');
    return rows.map((n: any) => n.body);
  }

  describe('GET .../merge_requests/:iid/pipelines', () => {
    it("lists the source branch's pipelines of the merge request's commits, newest first", async () => {
      const p = await project();
      const first = await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const second = await files(p, 'feature', { 'b.txt': 'b\n' }, 'B');
      // The same commit on another branch: not the merge request's.
      await files(p, 'other', { 'c.txt': 'c\n' }, 'C', 'feature');
      const mr = await openMr(p, 'feature');
      const feature = await pipelinesOf(p, 'feature');
      expect(feature.map((x) => x.sha)).to.deep.equal([second, first]);

      const r = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/pipelines`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal(feature.map((x) => ({ id: x.id, sha: x.sha, ref: 'feature', status: 'pending' })));
      expect(r.headers.get('x-total')).to.equal('2');

      const paged = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/pipelines?per_page=1&page=2`, { token: reporter.token });
      expect(paged.body.map((x: any) => x.id)).to.deep.equal([feature[1].id]);
    });

    it('is empty without pipelines, 404 for an unknown merge request or a non-member', async () => {
      const p = await project({}, null);
      await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const mr = await openMr(p, 'feature');
      const r = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/pipelines`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([]);

      const missing = await s.get(`/projects/${p.id}/merge_requests/999/pipelines`, { token: reporter.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
      const hidden = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/pipelines`, { token: stranger.token });
      expect(hidden.status).to.equal(404);
      expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
    });
  });

  it("a merge request hook's head_pipeline_id is the head pipeline's", async () => {
    const bodies: any[] = [];
    const rx = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => rx.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/mr`;
      expect((await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } })).status).to.equal(200);
      const p = await project();
      const hook = await s.post(`/projects/${p.id}/hooks`, { token: owner.token, json: { url, merge_requests_events: true, push_events: false } });
      expect(hook.status, hook.text).to.equal(201);
      await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const mr = await openMr(p, 'feature');
      const [pipeline] = await pipelinesOf(p, 'feature');
      await s.drainJobs();
      const opened = bodies.find((b) => b.object_attributes?.action === 'open');
      expect(opened.object_attributes.head_pipeline_id).to.equal(pipeline.id);
      // No pipeline at the new head: none.
      await files(p, 'feature', { '.gitlab-ci.yml': null }, 'Drop CI');
      const updated = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token, json: { title: 'Renamed' } });
      expect(updated.status).to.equal(200);
      await s.drainJobs();
      const renamed = bodies.filter((b) => b.object_attributes?.action === 'update').pop();
      expect(renamed.object_attributes.title).to.equal('Renamed');
      expect(renamed.object_attributes.head_pipeline_id).to.equal(null);
    } finally {
      rx.closeAllConnections();
      await new Promise<void>((resolve) => rx.close(() => resolve()));
    }
  });

  describe('only_allow_merge_if_pipeline_succeeds', () => {
    it('405 while the head pipeline is pending or after it failed; merges once it succeeded', async () => {
      const p = await project({ only_allow_merge_if_pipeline_succeeds: true });
      await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const mr = await openMr(p, 'feature');
      const [pending] = await pipelinesOf(p, 'feature');

      const waiting = await merge(p, mr.iid);
      expect(waiting.status).to.equal(405);
      expect(waiting.body).to.deep.equal({ message: '405 Method Not Allowed' });

      await finish(pending.id, 'failed');
      const failed = await merge(p, mr.iid);
      expect(failed.status).to.equal(405);
      expect(failed.body).to.deep.equal({ message: '405 Method Not Allowed' });
      // A retried pipeline that succeeds lets it merge.
      const retried = await s.post(`/projects/${p.id}/pipelines/${pending.id}/retry`, { token: owner.token });
      expect(retried.status).to.equal(201);
      await finish(pending.id, 'success');
      const ok = await merge(p, mr.iid);
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.state).to.equal('merged');
    });

    it('merges without any pipeline, but not when only an earlier commit has one', async () => {
      const p = await project({ only_allow_merge_if_pipeline_succeeds: true }, null);
      await files(p, 'plain', { 'a.txt': 'a\n' }, 'A', 'master');
      const plain = await openMr(p, 'plain');
      const merged = await merge(p, plain.iid);
      expect(merged.status, merged.text).to.equal(200);
      expect(merged.body.state).to.equal('merged');

      await files(p, 'feature', { '.gitlab-ci.yml': CI }, 'Add CI', 'master');
      const mr = await openMr(p, 'feature');
      const [pipeline] = await pipelinesOf(p, 'feature');
      await finish(pipeline.id, 'success');
      // A commit without a CI configuration starts no pipeline: the head has none.
      await files(p, 'feature', { '.gitlab-ci.yml': null }, 'Drop CI');
      expect(await pipelinesOf(p, 'feature')).to.have.length(1);
      const outdated = await merge(p, mr.iid);
      expect(outdated.status).to.equal(405);
      expect(outdated.body).to.deep.equal({ message: '405 Method Not Allowed' });
    });

    it('with merge_when_pipeline_succeeds after a failed pipeline: 200, left unmerged (GitLab merge_error)', async () => {
      const p = await project({ only_allow_merge_if_pipeline_succeeds: true });
      await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const mr = await openMr(p, 'feature');
      const [pipeline] = await pipelinesOf(p, 'feature');
      await finish(pipeline.id, 'failed');
      const r = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ state: 'opened', merge_when_pipeline_succeeds: false });
    });
  });

  describe('merge_when_pipeline_succeeds', () => {
    async function waitingMr(p: Project, json: Record<string, unknown> = {}) {
      const sha = await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const mr = await openMr(p, 'feature');
      const [pipeline] = await pipelinesOf(p, 'feature');
      expect(pipeline.status).to.equal('pending');
      const r = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true, ...json });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ state: 'opened', merge_when_pipeline_succeeds: true });
      // The metrics' pipeline: none until the head pipeline starts (PipelineMetricsWorker).
      expect(r.body).to.include({ pipeline: null, latest_build_started_at: null, latest_build_finished_at: null });
      return { mr, pipeline, sha };
    }

    it('waits for the active head pipeline, then the waiting user merges it with the kept params', async () => {
      const p = await project();
      const { mr, pipeline, sha } = await waitingMr(p, { merge_commit_message: 'Automatic merge', should_remove_source_branch: true });
      expect(await systemNotes(mr.id)).to.deep.equal([`enabled an automatic merge when the pipeline for ${sha} succeeds`]);
      const stored = await s.db('merge_requests').where({ id: mr.id }).first();
      expect(stored.merge_user_id).to.equal(lead.user.id);
      expect((await showMr(p, mr.iid)).should_remove_source_branch).to.equal(true);

      // Asking again replaces the params (GitLab's merge_params.merge!): no second note, the first user stays.
      const again = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true, merge_commit_message: 'Automatic merge!', should_remove_source_branch: true }, owner.token);
      expect(again.status).to.equal(200);
      expect(await systemNotes(mr.id)).to.have.length(1);
      expect((await s.db('merge_requests').where({ id: mr.id }).first()).merge_user_id).to.equal(lead.user.id);

      await finish(pipeline.id, 'success');
      const shown = await showMr(p, mr.iid);
      expect(shown.state).to.equal('merged');
      expect(shown.merged_by.username).to.equal('lena');
      expect(shown.pipeline).to.deep.equal({ id: pipeline.id, sha, ref: 'feature', status: 'success' });
      expect(shown.latest_build_started_at).to.be.a('string');
      expect(shown.latest_build_finished_at).to.be.a('string');
      expect(shown.merge_when_pipeline_succeeds).to.equal(false);
      expect(git(p.dir, ['log', '-1', '--format=%s', 'master']).trim()).to.equal('Automatic merge!');
      expect(git(p.dir, ['rev-parse', 'master^2']).trim()).to.equal(sha);
      // should_remove_source_branch kept from the request: the source branch is gone.
      expect(git(p.dir, ['for-each-ref', 'refs/heads/feature']).trim()).to.equal('');
    });

    it('a failed pipeline leaves it waiting, and queues no merge', async () => {
      const p = await project();
      const { mr, pipeline } = await waitingMr(p);
      await finish(pipeline.id, 'failed');
      const shown = await showMr(p, mr.iid);
      expect(shown).to.include({ state: 'opened', merge_when_pipeline_succeeds: true, latest_build_finished_at: null });
      expect(shown.pipeline).to.deep.equal({ id: pipeline.id, sha: pipeline.sha, ref: 'feature', status: 'failed' });
      expect(shown.latest_build_started_at).to.be.a('string');
      expect(git(p.dir, ['rev-parse', 'master']).trim()).to.not.equal(pipeline.sha);
      const jobs = await s.db('jobs').where({ kind: 'pipeline_success' });
      expect(jobs.filter((j: any) => JSON.parse(j.payload).pipelineId === pipeline.id)).to.have.length(0);
    });

    it('a push to the source branch resets it; the old pipeline succeeding merges nothing', async () => {
      const p = await project();
      const { mr, pipeline } = await waitingMr(p);
      await files(p, 'feature', { 'b.txt': 'b\n' }, 'B');
      expect((await showMr(p, mr.iid)).merge_when_pipeline_succeeds).to.equal(false);
      await finish(pipeline.id, 'success');
      expect((await showMr(p, mr.iid)).state).to.equal('opened');
    });

    it('a conflict by the time the pipeline succeeds: left waiting, an unmergeable to-do for the merge user', async () => {
      const p = await project();
      const { mr, pipeline } = await waitingMr(p);
      await files(p, 'master', { 'a.txt': 'conflicting\n' }, 'Conflict');
      const masterHead = git(p.dir, ['rev-parse', 'master']).trim();
      // The master push's own pipeline is not the merge request's.
      await finish(pipeline.id, 'success');
      expect(await showMr(p, mr.iid)).to.include({ state: 'opened', merge_when_pipeline_succeeds: true, merge_status: 'cannot_be_merged' });
      expect(git(p.dir, ['rev-parse', 'master']).trim()).to.equal(masterHead);
      // (lena's build_failed to-dos of earlier tests' failed pipelines are other projects'.)
      const todos = (await s.get('/todos', { token: lead.token, query: { project_id: String(p.id) } })).body;
      expect(todos.map((t: any) => [t.action_name, t.target.iid, t.author.username])).to.deep.equal([['unmergeable', mr.iid, 'lena']]);
    });

    it('cancel resets it with a note; the pipeline succeeding merges nothing', async () => {
      const p = await project();
      const { mr, pipeline, sha } = await waitingMr(p);
      const r = await s.post(`/projects/${p.id}/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`, { token: owner.token });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({ status: 'success' });
      expect(await systemNotes(mr.id)).to.deep.equal([`enabled an automatic merge when the pipeline for ${sha} succeeds`, 'canceled the automatic merge']);
      await finish(pipeline.id, 'success');
      expect(await showMr(p, mr.iid)).to.include({ state: 'opened', merge_when_pipeline_succeeds: false });
    });

    it('merges at once when the head pipeline is no longer active; refusals keep their status and body', async () => {
      const p = await project();
      await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
      const mr = await openMr(p, 'feature');
      const [pipeline] = await pipelinesOf(p, 'feature');

      const denied = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true }, dev.token);
      expect(denied.status).to.equal(401);
      expect(denied.body).to.deep.equal({ message: '401 Unauthorized' });
      const wrongSha = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true, sha: '0'.repeat(40) });
      expect(wrongSha.status).to.equal(409);
      expect(wrongSha.body).to.deep.equal({ message: `SHA does not match HEAD of source branch: ${pipeline.sha}` });
      expect((await showMr(p, mr.iid)).merge_when_pipeline_succeeds).to.equal(false);

      await finish(pipeline.id, 'failed');
      const r = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true });
      expect(r.status).to.equal(200);
      expect(r.body.state).to.equal('merged');
    });
  });
});
