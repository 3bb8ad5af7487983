// The objects the fuzz test (test/api/fuzz.test.ts) names in its paths, made through the API on
// a fresh server, so that a request with a hostile body reaches the endpoint's own work and not
// a 404: a public project with a history, branches, a tag, a pipeline whose jobs ran (a
// deployment and its environment), a commit status, issues, a merge request, snippets, notes,
// discussions, award emoji, labels, a milestone, members, access requests, custom attributes,
// CI variables, badges, a Pages domain, hooks, keys, GPG keys, secondary e-mails, an
// impersonation token, a todo and an export.
import { expect } from 'chai';
import { generateKey } from 'openpgp';
import type { TestServer } from './server.js';
import { ROOT_TOKEN } from './server.js';
import { commitFiles, createBranch, createProject, created, openMergeRequest, repoDir } from './projects.js';
import { git } from './bare_git.js';
import { makeKey } from './ssh_keys.js';
import { transitionBuild } from '../../src/services/ci/build_transitions.js';

/** A 1×1 PNG, for the avatar parameters. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const CI_FILE =
  'build:\n  stage: build\n  script: make\ndeploy:\n  stage: deploy\n  script: ./deploy\n  environment:\n    name: production\n    url: https://prod.example.com\nmanual:\n  stage: deploy\n  script: ./ship\n  when: manual\n';

export interface FuzzWorld {
  /**
   * A valid value (URL-encoded) for a path parameter, keyed `<segments>:<name>` where
   * `<segments>` are the path's literal segments before the parameter, shortest suffix that
   * tells the objects apart (`issues/notes:note_id`, `badges:badge_id`), or by `name` alone.
   */
  valid: Record<string, string>;
  /** A plain user's token (not a member of the project). */
  userToken: string;
  /** SSH public keys no one has added yet, for the key routes' bodies. */
  freshKeys: string[];
  /** Armored GPG public keys no one has added yet, for the GPG key routes' bodies. */
  freshGpgKeys: string[];
  /** An export archive of the project, for `POST /projects/import`. */
  exportArchive: Buffer;
  victimId: number;
  groupId: number;
}

async function ok(r: { status: number; text: string; body: any }, status = 201): Promise<any> {
  expect(r.status, r.text).to.equal(status);
  return r.body;
}

export async function makeFuzzWorld(s: TestServer): Promise<FuzzWorld> {
  const plain = await s.createUser('plain');
  const victim = await s.createUser('victim');
  const requester = await s.createUser('requester');
  const group = created(await s.post('/groups', { json: { name: 'fuzzgroup', path: 'fuzzgroup', visibility: 'public', request_access_enabled: true } }));
  const project = await createProject(s, ROOT_TOKEN, { name: 'fuzzed', visibility: 'public', request_access_enabled: true });
  const base = `/projects/${project.id}`;
  const master = await commitFiles(
    s,
    project.id,
    'master',
    [
      { action: 'create', file_path: 'README.md', content: 'hello\n' },
      { action: 'create', file_path: 'lib/a.rb', content: 'a\n' },
    ],
    { token: ROOT_TOKEN },
  );
  git(repoDir(s, project.path_with_namespace), ['tag', 'v1', master]);
  await createBranch(s, project.id, 'feature', 'master', ROOT_TOKEN);
  await createBranch(s, project.id, 'ветка', 'master', ROOT_TOKEN); // HOSTILE_STRINGS names it
  await commitFiles(s, project.id, 'feature', [{ action: 'update', file_path: 'README.md', content: 'changed\n' }], { token: ROOT_TOKEN });

  // A pipeline whose build and deploy jobs succeeded: a deployment, an environment.
  const ciSha = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI_FILE }], { token: ROOT_TOKEN });
  await s.drainJobs();
  const [pipeline] = await ok(await s.get(`${base}/pipelines`, { query: { sha: ciSha } }), 200);
  expect(pipeline, 'the CI file made a pipeline').to.not.equal(undefined);
  const jobs = (await ok(await s.get(`${base}/pipelines/${pipeline.id}/jobs`), 200)) as { id: number; name: string }[];
  for (const name of ['build', 'deploy']) {
    const job = jobs.find((j) => j.name === name)!;
    await transitionBuild(s.deps.db, job.id, 'running');
    await transitionBuild(s.deps.db, job.id, 'success');
  }
  const [deployment] = await ok(await s.get(`${base}/deployments`), 200);
  expect(deployment, 'the deploy job made a deployment').to.not.equal(undefined);
  await ok(await s.post(`${base}/statuses/${ciSha}`, { json: { state: 'running', name: 'fuzz-ci' } }));

  const issue = created(await s.post(`${base}/issues`, { json: { title: 'fuzz issue', description: 'words here' } }));
  const mr = await openMergeRequest(s, project.id, { title: 'fuzz mr', source_branch: 'feature', target_branch: 'master' }, ROOT_TOKEN);
  const snippet = created(await s.post(`${base}/snippets`, { json: { title: 'fuzz snippet', file_name: 'a.sh', code: 'echo\n', visibility: 'public' } }));
  const personal = created(await s.post('/snippets', { json: { title: 'personal', file_name: 'b.sh', content: 'echo\n', visibility: 'public' } }));
  const issueNote = created(await s.post(`${base}/issues/${issue.iid}/notes`, { json: { body: 'a note' } }));
  const mrNote = created(await s.post(`${base}/merge_requests/${mr.iid}/notes`, { json: { body: 'an mr note' } }));
  const snippetNote = created(await s.post(`${base}/snippets/${snippet.id}/notes`, { json: { body: 'a snippet note' } }));
  await ok(await s.post(`${base}/repository/commits/${master}/comments`, { json: { note: 'a commit comment' } }));
  // A discussion (not an individual note) on each noteable, for the routes that reply to one.
  const discussion = async (url: string) => {
    const d = created(await s.post(url, { json: { body: 'a discussion' } })) as { id: string; notes: { id: number }[] };
    return { id: d.id, note: String(d.notes[0].id) };
  };
  const issueDiscussion = await discussion(`${base}/issues/${issue.iid}/discussions`);
  const mrDiscussion = await discussion(`${base}/merge_requests/${mr.iid}/discussions`);
  const snippetDiscussion = await discussion(`${base}/snippets/${snippet.id}/discussions`);
  const commitDiscussion = await discussion(`${base}/repository/commits/${master}/discussions`);
  const award = async (url: string) => created(await s.post(url, { json: { name: 'tada' } })).id as number;
  const label = created(await s.post(`${base}/labels`, { json: { name: 'bug', color: '#ff0000' } }));
  const [projectBoard] = await ok(await s.get(`${base}/boards`), 200);
  const boardList = created(await s.post(`${base}/boards/${projectBoard.id}/lists`, { json: { label_id: label.id } }));
  const [groupBoard] = await ok(await s.get(`/groups/${group.id}/boards`), 200);
  const milestone = created(await s.post(`${base}/milestones`, { json: { title: 'v1' } }));
  created(await s.post(`${base}/members`, { json: { user_id: victim.user.id, access_level: 30 } }));
  created(await s.post(`/groups/${group.id}/members`, { json: { user_id: victim.user.id, access_level: 30 } }));
  created(await s.post(`${base}/access_requests`, { token: requester.token }));
  created(await s.post(`/groups/${group.id}/access_requests`, { token: requester.token }));
  created(await s.post(`${base}/protected_branches`, { json: { name: 'release-*' } }));
  created(await s.post(`${base}/share`, { json: { group_id: group.id, group_access: 30 } }));
  const token = created(await s.post(`/users/${victim.user.id}/impersonation_tokens`, { json: { name: 't', scopes: ['api'] } }));
  for (const owner of [base, `/groups/${group.id}`, `/users/${victim.user.id}`]) await ok(await s.put(`${owner}/custom_attributes/colour`, { json: { value: 'blue' } }), 200);
  created(await s.post(`${base}/variables`, { json: { key: 'colour', value: 'blue' } }));
  created(await s.post(`/groups/${group.id}/variables`, { json: { key: 'colour', value: 'blue' } }));
  const badge = { link_url: 'https://badge.example.com/%{project_path}', image_url: 'https://badge.example.com/b.svg' };
  const projectBadge = created(await s.post(`${base}/badges`, { json: badge }));
  const groupBadge = created(await s.post(`/groups/${group.id}/badges`, { json: badge }));
  const domain = created(await s.post(`${base}/pages/domains`, { json: { domain: 'fuzz.example.com' } }));
  // Hooks name a closed port of this machine: nothing is ever delivered elsewhere.
  const hook = created(await s.post(`${base}/hooks`, { json: { url: 'http://127.0.0.1:9/fuzz-hook', issues_events: true } }));
  const systemHook = created(await s.post('/hooks', { json: { url: 'http://127.0.0.1:9/fuzz-system-hook' } }));
  const [rootKey, victimKey, deployKey, ...freshKeys] = await Promise.all(Array.from({ length: 6 }, (_, i) => makeKey('ed25519', `fuzz-${i}@wharf`)));
  const userKey = created(await s.post('/user/keys', { json: { title: 'root key', key: rootKey.publicKey } }));
  const otherKey = created(await s.post(`/users/${victim.user.id}/keys`, { json: { title: 'victim key', key: victimKey.publicKey } }));
  const projectDeployKey = created(await s.post(`${base}/deploy_keys`, { json: { title: 'deploy', key: deployKey.publicKey } }));
  const gpgKeys = await Promise.all(
    Array.from({ length: 4 }, async (_, i) => (await generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ email: `fuzz-${i}@wharf.example` }] })).publicKey),
  );
  const [rootGpgKey, victimGpgKey] = await Promise.all([
    s.post('/user/gpg_keys', { json: { key: gpgKeys[0] } }),
    s.post(`/users/${victim.user.id}/gpg_keys`, { json: { key: gpgKeys[1] } }),
  ]).then((replies) => replies.map(created));
  const rootEmail = created(await s.post('/user/emails', { json: { email: 'root.fuzz@wharf.example' } }));
  const victimEmail = created(await s.post(`/users/${victim.user.id}/emails`, { json: { email: 'victim.fuzz@wharf.example' } }));
  const todo = created(await s.post(`${base}/issues/${issue.iid}/todo`));
  await ok(await s.post(`${base}/export`), 202);
  await s.drainJobs();
  const download = await fetch(`${s.url}/api/v4${base}/export/download`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } });
  expect(download.status, 'the export is ready').to.equal(200);
  const exportArchive = Buffer.from(await download.arrayBuffer());

  const valid: Record<string, string> = {
    'projects:id': String(project.id),
    'groups:id': String(group.id),
    'users:id': String(victim.user.id),
    'namespaces:id': String(group.id),
    'todos:id': String(todo.id),
    'hooks:id': String(systemHook.id),
    'keys:id': String(userKey.id),
    'snippets:id': String(personal.id),
    user_id: String(victim.user.id),
    'access_requests:user_id': String(requester.user.id),
    group_id: String(group.id),
    issue_iid: String(issue.iid),
    merge_request_iid: String(mr.iid),
    iid: String(issue.iid),
    snippet_id: String(snippet.id),
    'issues:subscribable_id': String(issue.iid),
    'merge_requests:subscribable_id': String(mr.iid),
    'issues:noteable_id': String(issue.iid),
    'merge_requests:noteable_id': String(mr.iid),
    'snippets:noteable_id': String(snippet.id),
    'commits:noteable_id': master,
    'issues/notes:note_id': String(issueNote.id),
    'merge_requests/notes:note_id': String(mrNote.id),
    'snippets/notes:note_id': String(snippetNote.id),
    'issues/discussions/notes:note_id': issueDiscussion.note,
    'merge_requests/discussions/notes:note_id': mrDiscussion.note,
    'snippets/discussions/notes:note_id': snippetDiscussion.note,
    'commits/discussions/notes:note_id': commitDiscussion.note,
    'issues/discussions:discussion_id': issueDiscussion.id,
    'merge_requests/discussions:discussion_id': mrDiscussion.id,
    'snippets/discussions:discussion_id': snippetDiscussion.id,
    'commits/discussions:discussion_id': commitDiscussion.id,
    'issues/award_emoji:award_id': String(await award(`${base}/issues/${issue.iid}/award_emoji`)),
    'merge_requests/award_emoji:award_id': String(await award(`${base}/merge_requests/${mr.iid}/award_emoji`)),
    'snippets/award_emoji:award_id': String(await award(`${base}/snippets/${snippet.id}/award_emoji`)),
    'issues/notes/award_emoji:award_id': String(await award(`${base}/issues/${issue.iid}/notes/${issueNote.id}/award_emoji`)),
    'merge_requests/notes/award_emoji:award_id': String(await award(`${base}/merge_requests/${mr.iid}/notes/${mrNote.id}/award_emoji`)),
    'snippets/notes/award_emoji:award_id': String(await award(`${base}/snippets/${snippet.id}/notes/${snippetNote.id}/award_emoji`)),
    label_id: String(label.id),
    'projects/boards:board_id': String(projectBoard.id),
    'groups/boards:board_id': String(groupBoard.id),
    'projects/boards/lists:list_id': String(boardList.id),
    milestone_id: String(milestone.id),
    impersonation_token_id: String(token.id),
    'projects/badges:badge_id': String(projectBadge.id),
    'groups/badges:badge_id': String(groupBadge.id),
    'user/keys:key_id': String(userKey.id),
    'users/keys:key_id': String(otherKey.id),
    'deploy_keys:key_id': String(projectDeployKey.id),
    'user/gpg_keys:key_id': String(rootGpgKey.id),
    'users/gpg_keys:key_id': String(victimGpgKey.id),
    'user/emails:email_id': String(rootEmail.id),
    'users/emails:email_id': String(victimEmail.id),
    hook_id: String(hook.id),
    pipeline_id: String(pipeline.id),
    job_id: String(jobs.find((j) => j.name === 'manual')!.id),
    deployment_id: String(deployment.id),
    domain: encodeURIComponent(domain.domain),
    key: 'colour',
    file: 'swagger-ui.css',
    sha: master,
    file_path: 'README.md',
    branch: 'feature',
    tag_name: 'v1',
    name: 'release-*',
    ref_name: 'master',
    format: 'zip',
  };
  return {
    valid,
    userToken: plain.token,
    freshKeys: freshKeys.map((k) => k.publicKey),
    freshGpgKeys: gpgKeys.slice(2),
    exportArchive,
    victimId: victim.user.id,
    groupId: group.id,
  };
}

/** The valid value of path parameter `name` in `template` (`/projects/{id}/issues/{issue_iid}`), '1' when none is known. */
export function validValue(valid: Record<string, string>, template: string, name: string): string {
  const at = template.indexOf(`{${name}}`);
  const segments = template
    .slice(0, at)
    .split('/')
    .filter((seg) => seg !== '' && !seg.startsWith('{') && seg !== 'repository');
  for (let from = 0; from < segments.length; from++) {
    const value = valid[`${segments.slice(from).join('/')}:${name}`];
    if (value !== undefined) return value;
  }
  return valid[name] ?? '1';
}
