// Project snippets (GitLab 10.8 lib/api/project_snippets.rb): list, single, create, update,
// delete, raw, and the admins' user agent detail, under `/projects/:id/snippets`. Every route
// needs a signed-in user (401, even on public projects). What a user sees is SnippetsFinder's
// answer (finders/snippets.ts): a snippet it hides is `404 Not found` on a single GET and
// `404 Snippet Not Found` on update, delete and raw, as in GitLab; update needs
// update_project_snippet and delete admin_project_snippet on the snippet (its author, admins,
// masters unless it is internal). Create takes `code` (10.8's name) or `content` (later
// GitLab's and python-gitlab's); an update needs one of title, file_name, code/content or
// visibility (10.8 names `visibility_level` there, which it does not declare, so it refuses a
// visibility-only update; Wharf takes `visibility`, and `visibility_level` too, as 10.8 does).
import type Koa from 'koa';
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { LoadedProject } from './core/loaders.js';
import type { SnippetRow } from '../store/snippet_rows.js';
import { forbidden, notFound, paramError, recordNotFound } from '../http/errors.js';
import { blankIfNull, p, rawParams } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { can } from '../policy/can.js';
import { findListedProjectSnippet, findProjectSnippet, loadSnippetContext, projectSnippetsQuery } from '../finders/snippets.js';
import { findProjectByIdOrPath } from '../finders/projects.js';
import { projectSnippetEntity } from '../entities/snippet.js';
import { createSnippet, deleteSnippet, updateSnippet } from '../services/snippets/snippets.js';
import { snippetSettings } from '../services/snippets/snippet_settings.js';
import { levelOf, originOf, sendRaw, userAgentDetailOf, visibilityParam } from './snippet_params.js';

const SNIPPET = { schema: 'Snippet' } as const;
const snippetId = { snippet_id: p.integer().required() };
const UPDATE_KEYS = ['title', 'file_name', 'code', 'content', 'visibility', 'visibility_level'];

async function present(deps: Deps, snippets: SnippetRow[]) {
  const context = await loadSnippetContext(deps.db, snippets);
  return snippets.map((s) => projectSnippetEntity(s, context, deps.urls));
}

/** The snippet if the user's lists show it, else GitLab's `404 Snippet Not Found`. */
async function listedOr404(deps: Deps, loaded: LoadedProject, id: number): Promise<SnippetRow> {
  const snippet = await findListedProjectSnippet(deps.db, loaded.user, loaded.project, loaded.access, id);
  if (!snippet) throw notFound('Snippet');
  return snippet;
}

function subjectOf(loaded: LoadedProject, snippet: SnippetRow) {
  return { kind: 'project_snippet' as const, project: loaded.project, access: loaded.access, snippet };
}

/** GitLab's at_least_one_of for an update, counting the names Wharf also takes. */
function requireSomeChange(ctx: Koa.Context): void {
  const raw = rawParams(ctx);
  if (!UPDATE_KEYS.some((k) => raw[k] !== undefined)) {
    throw paramError('title, file_name, code, visibility_level are missing, at least one parameter must be provided');
  }
}

export const projectSnippetRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/snippets',
    auth: 'user',
    load: 'project',
    summary: "List a project's snippets",
    response: { ...SNIPPET, list: true },
    handler: async ({ ctx, deps, loaded }) => present(deps, await paginate<SnippetRow>(ctx, deps.db, projectSnippetsQuery(deps.db, loaded.user, loaded.project, loaded.access))),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/snippets/:snippet_id',
    auth: 'user',
    load: 'project',
    params: snippetId,
    summary: 'Get a project snippet',
    response: SNIPPET,
    handler: async ({ deps, loaded, params }) => {
      const snippet = await findListedProjectSnippet(deps.db, loaded.user, loaded.project, loaded.access, params.snippet_id);
      if (!snippet) throw recordNotFound();
      return (await present(deps, [snippet]))[0];
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/snippets',
    auth: 'user',
    load: 'project',
    ability: 'create_project_snippet',
    params: {
      title: p.string().required(),
      file_name: p.string().required(),
      code: p.anyString().required(), // a NUL is the model's error (services/snippets/validation.ts)
      description: p.string().nullable(),
      visibility: visibilityParam().required(),
    },
    rules: { aliases: { code: 'content' } },
    summary: 'Create a project snippet',
    response: SNIPPET,
    handler: async ({ ctx, deps, user, loaded, params: v }) => {
      const snippet = await createSnippet(deps.db, await snippetSettings(deps), {
        author: user,
        project: loaded.project,
        values: { title: v.title, file_name: v.file_name, content: v.code ?? '', description: v.description ?? null, visibility_level: levelOf(v.visibility)! },
        origin: originOf(ctx),
      });
      return (await present(deps, [snippet]))[0];
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/snippets/:snippet_id',
    auth: 'user',
    load: 'project',
    params: {
      ...snippetId,
      // A null title, file name or code is the model's "can't be blank"; a null description clears it.
      title: p.string().nullable(),
      file_name: p.string().nullable(),
      code: p.anyString().nullable(),
      description: p.string().nullable(),
      visibility: visibilityParam(),
    },
    rules: { aliases: { code: 'content' } },
    summary: 'Update a project snippet',
    response: SNIPPET,
    handler: async ({ ctx, deps, user, loaded, params: v }) => {
      requireSomeChange(ctx);
      const snippet = await listedOr404(deps, loaded, v.snippet_id);
      if (!can(user, subjectOf(loaded, snippet), 'update_project_snippet')) throw forbidden();
      const updated = await updateSnippet(deps.db, await snippetSettings(deps), user, snippet, {
        title: blankIfNull(v.title),
        file_name: v.file_name,
        content: blankIfNull(v.code),
        description: v.description,
        visibility_level: levelOf(v.visibility),
      });
      return (await present(deps, [updated]))[0];
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/snippets/:snippet_id',
    auth: 'user',
    load: 'project',
    params: snippetId,
    summary: 'Delete a project snippet',
    handler: async ({ ctx, deps, user, loaded, params }) => {
      const snippet = await listedOr404(deps, loaded, params.snippet_id);
      if (!can(user, subjectOf(loaded, snippet), 'admin_project_snippet')) throw forbidden();
      checkUnmodifiedSince(ctx, snippet.updated_at);
      await deleteSnippet(deps.db, snippet);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/snippets/:snippet_id/raw',
    auth: 'user',
    load: 'project',
    params: snippetId,
    summary: "A project snippet's content, as text/plain",
    handler: async ({ ctx, deps, loaded, params }) => sendRaw(ctx, await listedOr404(deps, loaded, params.snippet_id)),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/snippets/:snippet_id/user_agent_detail',
    auth: 'admin',
    params: snippetId,
    summary: 'Where a project snippet was created from (admins): user agent, IP address, spam report',
    response: { schema: 'UserAgentDetail' },
    handler: async ({ deps, path, params }) => {
      // GitLab looks the snippet up by the project's id alone, without the project's visibility (admins see all).
      const project = await findProjectByIdOrPath(deps.db, path.id);
      const snippet = project ? await findProjectSnippet(deps.db, project.id, params.snippet_id) : undefined;
      if (!snippet) throw recordNotFound();
      return userAgentDetailOf(deps, snippet);
    },
  }),
];
