// Projects, commits, branches and merge requests made through the API for test setup; each
// call asserts GitLab's 201 (with the answer's text when it fails) and returns what it made.
import { expect } from 'chai';
import path from 'node:path';
import { git } from './bare_git.js';
import type { Reply, TestServer } from './server.js';

/** Asserts a 201 answer (its text explains a failure) and returns its body. */
export function created<T = any>(r: Reply<T>): T {
  expect(r.status, r.text).to.equal(201);
  return r.body;
}

/** The bare repository of a project on the test server's disk. */
export function repoDir(s: TestServer, pathWithNamespace: string): string {
  return path.join(s.dir, 'repos', `${pathWithNamespace}.git`);
}

/** POST /projects as the token's user; the created project's entity. */
export async function createProject(s: TestServer, token: string, json: Record<string, unknown>): Promise<any> {
  return created(await s.post('/projects', { token, json }));
}

/** One commit of `actions` on `branch` (started from `start` when given) through POST .../repository/commits; its sha. */
export async function commitFiles(
  s: TestServer,
  projectId: number,
  branch: string,
  actions: Record<string, unknown>[],
  opts: { message?: string; start?: string; token: string },
): Promise<string> {
  const json = { branch, commit_message: opts.message ?? 'change', actions, ...(opts.start ? { start_branch: opts.start } : {}) };
  return created(await s.post(`/projects/${projectId}/repository/commits`, { token: opts.token, json })).id;
}

/**
 * One commit that writes `content` (path to text; null deletes the file) on `branch`: a path
 * already in the branch (or in `start`, which a new branch starts from) is updated, any other
 * created. `dir` is the project's bare repository, read to tell the two apart.
 */
export async function writeFiles(
  s: TestServer,
  p: { id: number; dir: string },
  branch: string,
  content: Record<string, string | null>,
  opts: { message?: string; start?: string; token: string },
): Promise<string> {
  const base = opts.start ?? branch;
  const existing = git(p.dir, ['for-each-ref', `refs/heads/${base}`]).trim() ? git(p.dir, ['ls-tree', '-r', '--name-only', base]).split('\n') : [];
  const actions = Object.entries(content).map(([file, text]) =>
    text === null ? { action: 'delete', file_path: file } : { action: existing.includes(file) ? 'update' : 'create', file_path: file, content: text },
  );
  return commitFiles(s, p.id, branch, actions, opts);
}

/** POST .../repository/branches: branch `name` from `ref`. */
export async function createBranch(s: TestServer, projectId: number, name: string, ref: string, token: string): Promise<void> {
  created(await s.post(`/projects/${projectId}/repository/branches`, { token, json: { branch: name, ref } }));
}

/** POST .../merge_requests with `json` as given; the created merge request's entity. */
export async function openMergeRequest(s: TestServer, projectId: number, json: Record<string, unknown>, token: string): Promise<any> {
  return created(await s.post(`/projects/${projectId}/merge_requests`, { token, json }));
}
