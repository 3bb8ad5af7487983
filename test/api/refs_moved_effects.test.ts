// One path after refs move (services/push/refs_moved.ts): the same changes made once with
// `git push` and once through the API (a commit, a new branch, a commit to a merge request's
// source branch, a tag) have the same effects, in every subsystem a moved ref reaches: the
// default branch, HEAD and its protection, push events and their payloads, the pusher's
// activity day, CI pipelines, push and tag push hook deliveries, the merge request's refresh,
// the housekeeping count and the statistics.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { commit, git, gitOk, repoUrl, tempDir } from '../transport/git_client.js';

const CI = 'build:\n  script:\n    - echo hi\n';

describe('effects of moved refs: git push and the API agree', function () {
  this.timeout(120_000);
  let s: TestServer;
  let dev: { user: { id: number; username: string }; token: string };

  before(async () => {
    s = await bootServer();
    dev = await s.createUser('pusher');
    const r = await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } });
    expect(r.status, r.text).to.equal(200);
  });
  after(async () => s.close());

  async function newProject(name: string): Promise<{ id: number; path: string }> {
    const r = await s.post('/projects', { json: { name }, token: dev.token });
    expect(r.status, r.text).to.equal(201);
    const hook = await s.post(`/projects/${r.body.id}/hooks`, { json: { url: 'http://127.0.0.1:9/hook', push_events: true, tag_push_events: true }, token: dev.token });
    expect(hook.status, hook.text).to.equal(201);
    return { id: r.body.id, path: r.body.path_with_namespace };
  }

  /** Everything a moved ref may have changed, in a form the two paths can be compared by. */
  async function effects(projectId: number, mrIid: number | null) {
    await s.drainJobs();
    const project = await s.get(`/projects/${projectId}`, { token: dev.token, query: { statistics: true } });
    const row = await s.db('projects').where({ id: projectId }).first('pushes_since_gc', 'last_activity_at', 'created_at');
    const gitdir = s.deps.repos.pathFor(project.body.path_with_namespace);
    const events = await s.get(`/projects/${projectId}/events`, { token: dev.token, query: { per_page: 100 } });
    const pipelines = await s.get(`/projects/${projectId}/pipelines`, { token: dev.token });
    const hookJobs: { payload: string }[] = await s.db('jobs').where({ kind: 'web_hook' }).select('payload');
    const deliveries = hookJobs
      .map((j) => JSON.parse(j.payload))
      .filter((p) => p.event?.projectId === projectId)
      .map((p) => p.hookName as string);
    const protectedBranches = await s.get(`/projects/${projectId}/protected_branches`, { token: dev.token });
    const user = await s.db('users').where({ id: dev.user.id }).first('last_activity_on');
    let mergeRequest: unknown = null;
    if (mrIid !== null) {
      const mr = await s.get(`/projects/${projectId}/merge_requests/${mrIid}/commits`, { token: dev.token });
      const notes = await s.get(`/projects/${projectId}/merge_requests/${mrIid}/notes`, { token: dev.token });
      mergeRequest = {
        commits: mr.body.map((c: { title: string }) => c.title),
        systemNotes: notes.body.filter((n: { system: boolean }) => n.system).map((n: { body: string }) => n.body.replace(/[0-9a-f]{8,40}/g, 'SHA')),
      };
    }
    return {
      defaultBranch: project.body.default_branch,
      head: fs.readFileSync(path.join(gitdir, 'HEAD'), 'utf8').trim(),
      activityMoved: row.last_activity_at !== row.created_at,
      protectedBranches: protectedBranches.body.map((b: { name: string }) => b.name),
      events: events.body.map((e: { action_name: string; push_data: Record<string, unknown> | null }) => ({
        action: e.action_name,
        push: e.push_data && {
          action: e.push_data.action,
          ref_type: e.push_data.ref_type,
          ref: e.push_data.ref,
          commit_count: e.push_data.commit_count,
          title: e.push_data.commit_title,
        },
      })),
      pusherActiveToday: user.last_activity_on === new Date().toISOString().slice(0, 10),
      pipelines: pipelines.body.map((p: { ref: string }) => p.ref).sort(),
      deliveries: deliveries.sort(),
      mergeRequest,
      pushesSinceGc: row.pushes_since_gc,
      commitCount: project.body.statistics.commit_count,
    };
  }

  const forgetActivity = () => s.db('users').where({ id: dev.user.id }).update({ last_activity_on: null });

  async function openMergeRequest(projectId: number): Promise<number> {
    const mr = await s.post(`/projects/${projectId}/merge_requests`, { json: { source_branch: 'feature', target_branch: 'master', title: 'Feature' }, token: dev.token });
    expect(mr.status, mr.text).to.equal(201);
    return mr.body.iid;
  }

  it('a first commit, a new branch, a commit to a merge request branch and a tag', async () => {
    // Through git.
    const viaGit = await newProject('via-git');
    const work = tempDir('wharf-effects-');
    await gitOk(['init', '-q', '-b', 'master', work]);
    const url = repoUrl(s, viaGit.path, dev.token, dev.user.username);
    const steps: Record<string, unknown>[] = [];
    await forgetActivity();
    await commit(work, { '.gitlab-ci.yml': CI, 'a.txt': 'a\n' }, 'first');
    const first = await git(['push', '-q', url, 'master'], { cwd: work });
    expect(first.code, first.stderr).to.equal(0);
    steps.push(await effects(viaGit.id, null));
    await gitOk(['push', '-q', url, 'master:refs/heads/feature'], { cwd: work });
    const gitMr = await openMergeRequest(viaGit.id);
    await forgetActivity();
    await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: work });
    await commit(work, { 'b.txt': 'b\n' }, 'second');
    await gitOk(['push', '-q', url, 'feature'], { cwd: work });
    steps.push(await effects(viaGit.id, gitMr));
    await forgetActivity();
    await gitOk(['tag', 'v1', 'master'], { cwd: work });
    await gitOk(['push', '-q', url, 'v1'], { cwd: work });
    steps.push(await effects(viaGit.id, gitMr));

    // Through the API.
    const viaApi = await newProject('via-api');
    const apiSteps: Record<string, unknown>[] = [];
    const files = (actions: Record<string, string>) => Object.entries(actions).map(([file_path, content]) => ({ action: 'create', file_path, content }));
    await forgetActivity();
    const c1 = await s.post(`/projects/${viaApi.id}/repository/commits`, {
      json: { branch: 'master', commit_message: 'first', actions: files({ '.gitlab-ci.yml': CI, 'a.txt': 'a\n' }) },
      token: dev.token,
    });
    expect(c1.status, c1.text).to.equal(201);
    apiSteps.push(await effects(viaApi.id, null));
    const branch = await s.post(`/projects/${viaApi.id}/repository/branches`, { json: { branch: 'feature', ref: 'master' }, token: dev.token });
    expect(branch.status, branch.text).to.equal(201);
    const apiMr = await openMergeRequest(viaApi.id);
    await forgetActivity();
    const c2 = await s.post(`/projects/${viaApi.id}/repository/commits`, {
      json: { branch: 'feature', commit_message: 'second', actions: files({ 'b.txt': 'b\n' }) },
      token: dev.token,
    });
    expect(c2.status, c2.text).to.equal(201);
    apiSteps.push(await effects(viaApi.id, apiMr));
    await forgetActivity();
    const tag = await s.post(`/projects/${viaApi.id}/repository/tags`, { json: { tag_name: 'v1', ref: 'master' }, token: dev.token });
    expect(tag.status, tag.text).to.equal(201);
    apiSteps.push(await effects(viaApi.id, apiMr));

    expect(apiSteps).to.deep.equal(steps);
    // And the effects are there at all (the comparison alone would pass if both did nothing).
    const last = steps[2] as Awaited<ReturnType<typeof effects>>;
    expect(last.defaultBranch).to.equal('master');
    expect(last.head).to.equal('ref: refs/heads/master');
    expect(last.protectedBranches).to.deep.equal(['master']);
    expect(last.pusherActiveToday).to.equal(true);
    expect(last.events.filter((e: { action: string }) => e.action === 'pushed new' || e.action === 'pushed to')).to.have.length(4);
    expect(last.deliveries).to.include('push_hooks').and.to.include('tag_push_hooks');
    expect(last.pipelines.length).to.be.greaterThan(0);
    expect((last.mergeRequest as { commits: string[] }).commits).to.deep.equal(['second']);
    expect(last.pushesSinceGc).to.equal(4);
    expect(last.commitCount).to.equal(1);
  });
});
