// GitLab 10.8's snippet entities, in their key order: ProjectSnippet (`id, title, file_name,
// description, author, updated_at, created_at, project_id, web_url`) and PersonalSnippet (the
// same and `raw_url`), which the /snippets API shows for every snippet, a project's included.
// Neither shows the visibility (10.8 does not). `web_url` is the snippet's page: under its
// project (`<project>/snippets/:id`) or `/snippets/:id`; `file_name` is "" when none was kept
// (Snippet#file_name). UserAgentDetail: `user_agent, ip_address, akismet_submitted`.
import type { Urls } from '../http/urls.js';
import type { SnippetContext, SnippetRow, UserAgentDetailRow } from '../store/snippet_rows.js';
import { ghostUser, userBasic } from './user.js';

function snippetWebUrl(snippet: SnippetRow, ctx: SnippetContext, urls: Urls): string {
  const projectPath = snippet.project_id === null ? undefined : ctx.projectPaths.get(snippet.project_id);
  return projectPath === undefined ? urls.web(`snippets/${snippet.id}`) : urls.web(`${projectPath}/snippets/${snippet.id}`);
}

export function projectSnippetEntity(snippet: SnippetRow, ctx: SnippetContext, urls: Urls) {
  const author = ctx.users.get(snippet.author_id);
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name ?? '',
    description: snippet.description,
    author: author ? userBasic(author, urls) : ghostUser(urls),
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: snippetWebUrl(snippet, ctx, urls),
  };
}

export function personalSnippetEntity(snippet: SnippetRow, ctx: SnippetContext, urls: Urls) {
  const base = projectSnippetEntity(snippet, ctx, urls);
  return { ...base, raw_url: `${base.web_url}/raw` };
}

export function userAgentDetailEntity(detail: UserAgentDetailRow) {
  return { user_agent: detail.user_agent, ip_address: detail.ip_address, akismet_submitted: !!detail.submitted };
}
