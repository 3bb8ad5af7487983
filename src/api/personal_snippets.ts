// Personal snippets (GitLab 10.8 lib/api/snippets.rb) under `/snippets`. Every route needs a
// signed-in user. As in 10.8, the list, single, update, delete and raw routes only see the
// user's own snippets — personal ones and those they wrote in projects they still see with
// snippets on (others' are `404 Not found` on a single GET, `404 Snippet Not Found` elsewhere);
// `/snippets/public` lists the public ones. Updating or deleting one's project snippet here is
// 403 (GitLab asks its ProjectSnippetPolicy for personal-snippet abilities, which it has
// none of). Creating needs create_personal_snippet (not external); `visibility` defaults to
// internal. Every snippet is shown as a PersonalSnippet (with `raw_url`).
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { SnippetRow } from '../store/snippet_rows.js';
import { forbidden, notFound, recordNotFound } from '../http/errors.js';
import { blankIfNull, p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { can, GLOBAL } from '../policy/can.js';
import { findOwnSnippet, findSnippet, loadSnippetContext, ownSnippetsQuery, publicSnippetsQuery } from '../finders/snippets.js';
import { personalSnippetEntity } from '../entities/snippet.js';
import { createSnippet, deleteSnippet, updateSnippet } from '../services/snippets/snippets.js';
import { snippetSettings } from '../services/snippets/snippet_settings.js';
import { levelOf, originOf, sendRaw, userAgentDetailOf, visibilityParam } from './snippet_params.js';

const SNIPPET = { schema: 'PersonalSnippet' } as const;
const snippetId = { id: p.integer().required() };

async function present(deps: Deps, snippets: SnippetRow[]) {
  const context = await loadSnippetContext(deps.db, snippets);
  return snippets.map((s) => personalSnippetEntity(s, context, deps.urls));
}

async function ownOr404(deps: Deps, user: UserRow, id: number): Promise<SnippetRow> {
  const snippet = await findOwnSnippet(deps.db, user, id);
  if (!snippet) throw notFound('Snippet');
  return snippet;
}

export const personalSnippetRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/snippets',
    auth: 'user',
    summary: "List the user's own snippets",
    response: { ...SNIPPET, list: true },
    handler: async ({ ctx, deps, user }) => present(deps, await paginate<SnippetRow>(ctx, deps.db, ownSnippetsQuery(deps.db, user))),
  }),

  route({
    method: 'GET',
    path: '/snippets/public',
    auth: 'user',
    summary: 'List public snippets',
    response: { ...SNIPPET, list: true },
    handler: async ({ ctx, deps, user }) => present(deps, await paginate<SnippetRow>(ctx, deps.db, publicSnippetsQuery(deps.db, user))),
  }),

  route({
    method: 'GET',
    path: '/snippets/:id',
    auth: 'user',
    params: snippetId,
    summary: 'Get one of your snippets',
    response: SNIPPET,
    handler: async ({ deps, user, params }) => {
      const snippet = await findOwnSnippet(deps.db, user, params.id);
      if (!snippet) throw recordNotFound();
      return (await present(deps, [snippet]))[0];
    },
  }),

  route({
    method: 'POST',
    path: '/snippets',
    auth: 'user',
    params: {
      title: p.string().required(),
      file_name: p.string().required(),
      content: p.anyString().required(), // a NUL is the model's error (services/snippets/validation.ts)
      description: p.string().nullable(),
      visibility: visibilityParam().default('internal'),
    },
    summary: 'Create a personal snippet',
    response: SNIPPET,
    handler: async ({ ctx, deps, user, params: v }) => {
      if (!can(user, GLOBAL, 'create_personal_snippet')) throw forbidden();
      const snippet = await createSnippet(deps.db, await snippetSettings(deps), {
        author: user,
        project: null,
        values: { title: v.title, file_name: v.file_name, content: v.content, description: v.description ?? null, visibility_level: levelOf(v.visibility)! },
        origin: originOf(ctx),
      });
      return (await present(deps, [snippet]))[0];
    },
  }),

  route({
    method: 'PUT',
    path: '/snippets/:id',
    auth: 'user',
    params: {
      ...snippetId,
      // A null title, file name or content is the model's "can't be blank"; a null description clears it.
      title: p.string().nullable(),
      file_name: p.string().nullable(),
      content: p.anyString().nullable(),
      description: p.string().nullable(),
      visibility: visibilityParam(),
    },
    rules: { atLeastOneOf: ['title', 'file_name', 'content', 'visibility'] },
    summary: 'Update one of your personal snippets',
    response: SNIPPET,
    handler: async ({ deps, user, params: v }) => {
      const snippet = await ownOr404(deps, user, v.id);
      if (!can(user, { kind: 'personal_snippet', snippet }, 'update_personal_snippet')) throw forbidden();
      const updated = await updateSnippet(deps.db, await snippetSettings(deps), user, snippet, {
        title: blankIfNull(v.title),
        file_name: v.file_name,
        content: blankIfNull(v.content),
        description: v.description,
        visibility_level: levelOf(v.visibility),
      });
      return (await present(deps, [updated]))[0];
    },
  }),

  route({
    method: 'DELETE',
    path: '/snippets/:id',
    auth: 'user',
    params: snippetId,
    summary: 'Delete one of your personal snippets',
    handler: async ({ ctx, deps, user, params }) => {
      const snippet = await ownOr404(deps, user, params.id);
      if (!can(user, { kind: 'personal_snippet', snippet }, 'destroy_personal_snippet')) throw forbidden();
      checkUnmodifiedSince(ctx, snippet.updated_at);
      await deleteSnippet(deps.db, snippet);
    },
  }),

  route({
    method: 'GET',
    path: '/snippets/:id/raw',
    auth: 'user',
    params: snippetId,
    summary: "One of your snippets' content, as text/plain",
    handler: async ({ ctx, deps, user, params }) => sendRaw(ctx, await ownOr404(deps, user, params.id)),
  }),

  route({
    method: 'GET',
    path: '/snippets/:id/user_agent_detail',
    auth: 'admin',
    params: snippetId,
    summary: 'Where a snippet was created from (admins): user agent, IP address, spam report',
    response: { schema: 'UserAgentDetail' },
    handler: async ({ deps, params }) => {
      const snippet = await findSnippet(deps.db, params.id);
      if (!snippet) throw recordNotFound();
      return userAgentDetailOf(deps, snippet);
    },
  }),
];
