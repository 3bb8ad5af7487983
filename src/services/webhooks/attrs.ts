// The pieces every webhook payload shares, in GitLab 10.8's shapes: Project#hook_attrs (with
// or without the backward-compatible keys), the `repository` block, User#hook_attrs and
// Commit#hook_attrs. Used by webhooks/payloads.ts (push, issue, merge request, note events) and
// webhooks/ci_payloads.ts (pipeline and job events).
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { fullPathOf, gitdirOf } from '../../finders/projects.js';
import { RepoReader } from '../../git/reader.js';

export type Json = Record<string, unknown>;

export async function projectRow(deps: Deps, id: number): Promise<ProjectWithNamespace | null> {
  const project = await deps.db('projects').where({ id }).first();
  if (!project) return null;
  const namespace = await deps.db('namespaces').where({ id: project.namespace_id }).first();
  return { ...project, namespace };
}

/** Project#hook_attrs; `backward` adds the old keys (homepage, url, ssh_url, http_url) as 10.8's default. */
export function projectHookAttrs(deps: Deps, p: ProjectWithNamespace, backward = true): Json {
  const path = fullPathOf(p);
  const attrs: Json = {
    id: p.id,
    name: p.name,
    description: p.description,
    web_url: deps.urls.web(path),
    avatar_url: p.avatar_url ?? null,
    git_ssh_url: deps.urls.sshRepo(path),
    git_http_url: deps.urls.httpRepo(path),
    namespace: p.namespace.name,
    visibility_level: p.visibility_level,
    path_with_namespace: path,
    default_branch: p.default_branch,
    ci_config_path: p.ci_config_path ?? null,
  };
  if (!backward) return attrs;
  return { ...attrs, homepage: deps.urls.web(path), url: deps.urls.sshRepo(path), ssh_url: deps.urls.sshRepo(path), http_url: deps.urls.httpRepo(path) };
}

export function repositoryAttrs(project: Json): Json {
  return { name: project.name, url: project.url, description: project.description, homepage: project.homepage };
}

export function userHookAttrs(u: UserRow | undefined): Json {
  if (!u) return { name: 'Ghost User', username: 'ghost', avatar_url: null };
  return { name: u.name, username: u.username, avatar_url: u.avatar_url ?? null };
}

/** Commit#hook_attrs of `sha` in the project's repository; null when it cannot be read. */
export async function commitHookAttrs(deps: Deps, project: ProjectWithNamespace, sha: string): Promise<Json | null> {
  try {
    const commit = await new RepoReader(gitdirOf(deps.repos, project)).commit(sha);
    return {
      id: sha,
      message: commit.message.replace(/\n$/, ''),
      timestamp: new Date(commit.committer.timestamp * 1000).toISOString().replace('.000Z', 'Z'),
      url: `${deps.urls.web(fullPathOf(project))}/commit/${sha}`,
      author: { name: commit.author.name, email: commit.author.email },
    };
  } catch {
    return null;
  }
}
