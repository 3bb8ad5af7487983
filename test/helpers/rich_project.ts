// A project with something of everything an export carries (repository history on two
// branches, labels, milestones, issues with notes, assignees and labels, a closed issue,
// a merge request with a note, award emoji on an issue, a merge request, a note and a
// snippet, a project snippet with a note, a member, a protected branch, the pipelines its
// pushes make (jobs waiting: no runner)), made through the API and a
// real `git push`, for the export and import tests.
import { expect } from 'chai';
import type { TestServer } from './server.js';
import { commit, gitOk, repoUrl, workRepo } from '../transport/git_client.js';

export interface RichProject {
  id: number;
  path: string;
  gitdir: string;
}

async function ok(r: { status: number; text: string; body: any }, status = 201): Promise<any> {
  expect(r.status, r.text).to.equal(status);
  return r.body;
}

export async function makeRichProject(s: TestServer, token: string, name: string, member: { user: { id: number } }): Promise<RichProject> {
  const p = await ok(await s.post('/projects', { token, json: { name, description: 'the original description' } }));
  const ci = 'build:\n  stage: build\n  script: [make]\ntest:\n  stage: test\n  script: [make test]\n';
  const dir = await workRepo([{ 'README.md': '# rich\n', '.gitlab-ci.yml': ci }, { 'src/a.txt': 'a\n' }]);
  await gitOk(['push', '-q', repoUrl(s, p.path_with_namespace, token), 'master'], { cwd: dir });
  await gitOk(['checkout', '-q', '-b', 'feature'], { cwd: dir });
  await commit(dir, { 'src/b.txt': 'b\n' }, 'feature work');
  await gitOk(['push', '-q', repoUrl(s, p.path_with_namespace, token), 'feature'], { cwd: dir });
  await gitOk(['tag', 'v1.0'], { cwd: dir });
  await gitOk(['push', '-q', repoUrl(s, p.path_with_namespace, token), 'v1.0'], { cwd: dir });
  const base = `/projects/${p.id}`;
  await ok(await s.post(`${base}/labels`, { token, json: { name: 'bug', color: '#FF0000', description: 'a bug' } }));
  await ok(await s.post(`${base}/labels`, { token, json: { name: 'feature', color: '#00FF00' } }));
  const m1 = await ok(await s.post(`${base}/milestones`, { token, json: { title: 'v1', description: 'first', due_date: '2030-01-01' } }));
  const m2 = await ok(await s.post(`${base}/milestones`, { token, json: { title: 'v2' } }));
  await ok(await s.put(`${base}/milestones/${m2.id}`, { token, json: { state_event: 'close' } }), 200);
  await ok(await s.post(`${base}/members`, { token, json: { user_id: member.user.id, access_level: 30 } }));
  const i1 = await ok(
    await s.post(`${base}/issues`, { token, json: { title: 'first issue', description: 'it breaks', labels: 'bug', milestone_id: m1.id, assignee_ids: [member.user.id] } }),
  );
  const n1 = await ok(await s.post(`${base}/issues/${i1.iid}/notes`, { token, json: { body: 'a first note' } }));
  await ok(await s.post(`${base}/issues/${i1.iid}/award_emoji`, { token, json: { name: 'rocket' } }));
  await ok(await s.post(`${base}/issues/${i1.iid}/notes/${n1.id}/award_emoji`, { token, json: { name: 'smile' } }));
  const i2 = await ok(await s.post(`${base}/issues`, { token, json: { title: 'second issue', confidential: true } }));
  await ok(await s.put(`${base}/issues/${i2.iid}`, { token, json: { state_event: 'close' } }), 200);
  const mr = await ok(
    await s.post(`${base}/merge_requests`, { token, json: { title: 'add b', source_branch: 'feature', target_branch: 'master', labels: 'feature', milestone_id: m1.id } }),
  );
  await ok(await s.post(`${base}/merge_requests/${mr.iid}/notes`, { token, json: { body: 'looks good' } }));
  await ok(await s.post(`${base}/merge_requests/${mr.iid}/award_emoji`, { token, json: { name: 'tada' } }));
  const snippet = await ok(
    await s.post(`${base}/snippets`, { token, json: { title: 'a snippet', file_name: 'hello.sh', code: 'echo hello\n', visibility: 'private', description: 'says hello' } }),
  );
  await ok(await s.post(`${base}/snippets/${snippet.id}/notes`, { token, json: { body: 'nice snippet' } }));
  await ok(await s.post(`${base}/snippets/${snippet.id}/award_emoji`, { token, json: { name: 'heart' } }));
  await ok(await s.post(`${base}/protected_branches`, { token, json: { name: 'release-*', push_access_level: 30 } }));
  await s.drainJobs(); // the pushes' pipelines
  return { id: p.id, path: p.path_with_namespace, gitdir: s.deps.repos.pathFor(p.path_with_namespace) };
}
