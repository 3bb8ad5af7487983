// What moving a branch does to the open merge requests around it (GitLab 10.8's
// RefreshService), through the files/commits API and through `git push`: the merge request
// follows its source head (sha, changes, diff_refs), its merge_status is checked again
// against the new heads, a target push that brings in the source head marks it merged, a
// deleted source branch closes it, and a push to the source cancels "merge when pipeline
// succeeds" and marks the pusher's to-dos done.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import type { Account } from '../helpers/roles.js';
import { createProject, openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { head } from '../helpers/bare_git.js';
import { commit as workCommit, gitOk, repoUrl, tempDir } from '../transport/git_client.js';

interface Project {
  id: number;
  path: string;
  dir: string;
}

describe('Merge request refresh on push', function () {
  this.timeout(60000);
  let s: TestServer;
  let owner: Account;
  const projects: number[] = [];

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('rae');
  });
  after(async () => {
    await s.close();
  });

  let counter = 0;
  async function project(): Promise<Project> {
    const r = await createProject(s, owner.token, { name: `r${++counter}` });
    projects.push(r.id);
    const p = { id: r.id, path: r.path_with_namespace, dir: repoDir(s, r.path_with_namespace) };
    await files(p, 'master', { 'README.md': 'hello\n', 'shared.txt': 'one\ntwo\nthree\n' }, 'Initial');
    return p;
  }

  const files = (p: Project, branch: string, content: Record<string, string | null>, message = 'change', start?: string) =>
    writeFiles(s, p, branch, content, { message, start, token: owner.token });

  const openMr = (p: Project, source: string, target = 'master') =>
    openMergeRequest(s, p.id, { source_branch: source, target_branch: target, title: `Merge ${source}` }, owner.token);

  const show = async (p: Project, iid: number) => (await s.get(`/projects/${p.id}/merge_requests/${iid}`, { token: owner.token })).body;
  const stored = async (id: number) => s.db('merge_requests').where({ id }).first();
  const changedPaths = async (p: Project, iid: number) =>
    (await s.get(`/projects/${p.id}/merge_requests/${iid}/changes`, { token: owner.token })).body.changes.map((c: { new_path: string }) => c.new_path).sort();

  it('an API commit to the source branch moves sha, changes and diff_refs, and merge_status is checked again', async () => {
    const p = await project();
    const first = await files(p, 'feature', { 'a.txt': 'a\n' }, 'A', 'master');
    const mr = await openMr(p, 'feature');
    expect(mr.sha).to.equal(first);
    expect(mr.merge_status).to.equal('can_be_merged');

    const second = await files(p, 'feature', { 'b.txt': 'b\n' }, 'B');
    const row = await stored(mr.id);
    expect(row.head_sha).to.equal(second);
    expect(row.merge_status).to.equal('unchecked'); // lazily checked on the next read
    const after = await show(p, mr.iid);
    expect(after.sha).to.equal(second);
    expect(after.changes_count).to.equal('2');
    expect(after.diff_refs.head_sha).to.equal(second);
    expect(after.merge_status).to.equal('can_be_merged');
    expect(await changedPaths(p, mr.iid)).to.deep.equal(['a.txt', 'b.txt']);

    // A conflicting change on the source flips it to cannot_be_merged.
    await files(p, 'master', { 'shared.txt': 'one\nmaster\nthree\n' }, 'Master edit');
    await files(p, 'feature', { 'shared.txt': 'one\nfeature\nthree\n' }, 'Feature edit');
    expect((await show(p, mr.iid)).merge_status).to.equal('cannot_be_merged');
    // Resolving it on the source makes it mergeable again.
    await files(p, 'feature', { 'shared.txt': 'one\nmaster\nthree\n' }, 'Take master');
    expect((await show(p, mr.iid)).merge_status).to.equal('can_be_merged');
  });

  it('a git push to the source branch refreshes the merge request; a push to the target is seen too', async () => {
    const p = await project();
    const work = path.join(tempDir(), 'clone');
    await gitOk(['clone', '-q', repoUrl(s, p.path, owner.token), work]);
    await gitOk(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await workCommit(work, { 'topic.txt': 'one\n' }, 'Topic one');
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'topic'], { cwd: work });
    const mr = await openMr(p, 'topic');

    const c2 = await workCommit(work, { 'topic.txt': 'one\ntwo\n', 'more.txt': 'more\n' }, 'Topic two');
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'topic'], { cwd: work });
    const after = await show(p, mr.iid);
    expect(after.sha).to.equal(c2);
    expect(after.changes_count).to.equal('2');
    expect(after.merge_status).to.equal('can_be_merged');
    const commits = (await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/commits`, { token: owner.token })).body.map((c: { id: string }) => c.id);
    expect(commits).to.deep.equal((await gitOk(['log', '--format=%H', 'origin/master..topic'], { cwd: work })).trim().split('\n'));

    // A conflicting push to the target: the start sha moves and the check answers again.
    await gitOk(['checkout', '-q', 'master'], { cwd: work });
    const m2 = await workCommit(work, { 'topic.txt': 'other\n' }, 'Master takes topic.txt');
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'master'], { cwd: work });
    const row = await stored(mr.id);
    expect(row.start_sha).to.equal(m2);
    expect(row.merge_status).to.equal('unchecked');
    expect((await show(p, mr.iid)).merge_status).to.equal('cannot_be_merged');
    const merge = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}/merge`, { token: owner.token });
    expect(merge.status).to.equal(406);
  });

  it('a push that brings the source head into the target marks the merge request merged by the pusher', async () => {
    const p = await project();
    const feature = await files(p, 'feature', { 'f.txt': 'f\n' }, 'F', 'master');
    const mr = await openMr(p, 'feature');
    const issue = await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: 'to close' } });
    await s.put(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token, json: { description: `Closes #${issue.body.iid}` } });

    const work = path.join(tempDir(), 'clone');
    await gitOk(['clone', '-q', repoUrl(s, p.path, owner.token), work]);
    await gitOk(['merge', '-q', '--ff-only', 'origin/feature'], { cwd: work });
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'master'], { cwd: work });
    expect(head(p.dir, 'master')).to.equal(feature);

    const after = await show(p, mr.iid);
    expect(after.state).to.equal('merged');
    expect(after.merged_by.username).to.equal('rae');
    expect(after.merge_commit_sha).to.equal(null);
    expect((await s.db('events').where({ target_type: 'MergeRequest', target_id: mr.id, action: 7 })).length).to.equal(1);
    expect((await s.get(`/projects/${p.id}/issues/${issue.body.iid}`, { token: owner.token })).body.state).to.equal('closed');
  });

  it('deleting the source branch closes its open merge requests', async () => {
    const p = await project();
    await files(p, 'doomed', { 'd.txt': 'd\n' }, 'D', 'master');
    const mr = await openMr(p, 'doomed');
    const del = await s.delete(`/projects/${p.id}/repository/branches/doomed`, { token: owner.token });
    expect(del.status).to.equal(204);
    const after = await show(p, mr.iid);
    expect(after.state).to.equal('closed');
    expect(after.closed_by.username).to.equal('rae');
  });

  it("a push to the source cancels merge when pipeline succeeds and marks the pusher's to-dos done", async () => {
    const p = await project();
    await files(p, 'auto', { 'a.txt': 'a\n' }, 'A', 'master');
    const mr = await openMr(p, 'auto');
    await s.db('merge_requests').where({ id: mr.id }).update({ merge_when_pipeline_succeeds: true, merge_user_id: owner.user.id, should_remove_source_branch: true });
    const stamp = new Date().toISOString();
    await s.db('todos').insert({
      user_id: owner.user.id,
      project_id: p.id,
      author_id: owner.user.id,
      target_type: 'MergeRequest',
      target_id: mr.id,
      action: 1,
      state: 'pending',
      created_at: stamp,
      updated_at: stamp,
    });
    await files(p, 'auto', { 'b.txt': 'b\n' }, 'B');
    const row = await stored(mr.id);
    expect(!!row.merge_when_pipeline_succeeds).to.equal(false);
    expect(row.merge_user_id).to.equal(null);
    const todos = await s.db('todos').where({ target_type: 'MergeRequest', target_id: mr.id });
    expect(todos.map((t: { state: string }) => t.state)).to.deep.equal(['done']);
  });

  it('merging one merge request refreshes the others into the same target', async () => {
    const p = await project();
    await files(p, 'one', { 'one.txt': '1\n' }, 'One', 'master');
    await files(p, 'two', { 'one.txt': '2\n' }, 'Two', 'master');
    const a = await openMr(p, 'one');
    const b = await openMr(p, 'two');
    expect(b.merge_status).to.equal('can_be_merged');
    expect((await s.put(`/projects/${p.id}/merge_requests/${a.iid}/merge`, { token: owner.token })).status).to.equal(200);
    const row = await stored(b.id);
    expect(row.start_sha).to.equal(head(p.dir, 'master'));
    expect((await show(p, b.iid)).merge_status).to.equal('cannot_be_merged'); // both add one.txt
  });
});
