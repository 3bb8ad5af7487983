// merge_when_pipeline_succeeds end to end with the built-in shell runner: real commits with a
// real .gitlab-ci.yml pushed with `git`, the merge request set to merge when its pipeline
// succeeds while the job runs, merged by the durable pipeline_success job once the runner
// finishes it; a failing script leaves the merge request open and still waiting.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { createProject, openMergeRequest } from '../helpers/projects.js';
import { commit, gitOk, repoUrl, workRepo } from '../transport/git_client.js';
import { portGate, type Gate } from '../helpers/job_signals.js';

describe('Merge when pipeline succeeds, with the shell runner', function () {
  this.timeout(120_000);
  let s: TestServer;
  const gates: Gate[] = [];
  before(async () => {
    s = await bootServer({ WHARF_RUNNER: 'shell', WHARF_RUNNER_CONCURRENCY: '1', WHARF_JOB_POLL_MS: '100' });
  });
  after(async () => {
    for (const g of gates) await g.close();
    await s.close();
  });

  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > end) throw new Error(`still waiting for ${what}: ${JSON.stringify(v)}`);
      await s.drainJobs();
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * A project whose feature branch's job waits until the test releases it (a port opened),
   * then runs `script`: the pipeline is surely active when the merge is asked for.
   */
  async function scenario(name: string, script: string) {
    const gate = await portGate();
    gates.push(gate);
    const release = () => gate.open();
    const project = await createProject(s, ROOT_TOKEN, { name });
    const url = repoUrl(s, project.path_with_namespace, ROOT_TOKEN, 'root');
    const dir = await workRepo([{ 'README.md': '# ci\n' }]);
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: dir });
    const sha = await commit(dir, { '.gitlab-ci.yml': `test:\n  script:\n    - ${gate.waitLine}\n    - ${script}\n` }, 'Add CI');
    await gitOk(['push', '-q', url, 'feature'], { cwd: dir });
    await s.drainJobs();
    const mr = await openMergeRequest(s, project.id, { source_branch: 'feature', target_branch: 'master', title: 'Feature' }, ROOT_TOKEN);
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines?ref=feature`)).body;
    expect(pipeline.sha).to.equal(sha);
    return { project, mr, pipeline, sha, release };
  }

  it('merges when the running pipeline succeeds', async () => {
    const { project, mr, pipeline, sha, release } = await scenario('mwps-ok', 'echo fine');
    const r = await s.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { json: { merge_when_pipeline_succeeds: true } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ state: 'opened', merge_when_pipeline_succeeds: true });
    await release();
    const listed = (await s.get(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`)).body;
    expect(listed.map((x: any) => x.id)).to.deep.equal([pipeline.id]);

    const merged = await until(
      async () => (await s.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body,
      (m) => m.state !== 'opened',
      'the merge',
    );
    expect(merged.state).to.equal('merged');
    expect(merged.merged_by.username).to.equal('root');
    expect((await s.get(`/projects/${project.id}/pipelines/${pipeline.id}`)).body.status).to.equal('success');
    const master = (await s.get(`/projects/${project.id}/repository/branches/master`)).body.commit;
    expect(master.parent_ids).to.include(sha);
  });

  it('leaves it open and waiting when the pipeline fails', async () => {
    const { project, mr, pipeline, release } = await scenario('mwps-fail', 'exit 3');
    const r = await s.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { json: { merge_when_pipeline_succeeds: true } });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.merge_when_pipeline_succeeds).to.equal(true);
    await release();
    const done = await until(
      async () => (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}`)).body,
      (p) => p.status === 'failed' || p.status === 'success',
      'the pipeline',
    );
    expect(done.status).to.equal('failed');
    await s.drainJobs();
    const shown = (await s.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body;
    expect(shown).to.include({ state: 'opened', merge_when_pipeline_succeeds: true });
  });
});
