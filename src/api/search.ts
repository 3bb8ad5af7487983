// Search (GitLab 10.8 lib/api/search.rb, SearchService): GET /search, /groups/:id/search and
// /projects/:id/search, for signed-in users only (401). `search` and `scope` are required,
// the scope one of the endpoint's (Grape's 400s); global search has no repository scopes in
// 10.8 CE (blobs, commits and wiki_blobs need Elasticsearch there): they are an invalid value.
// Each scope finds only what the user may read (finders/search/). Global and group searches
// page without counting (no X-Total, X-Total-Pages or `last` link), as 10.8's did; snippet
// scopes and project searches count. `ref` (later GitLab's) picks the ref of a project's blob
// and commit search, the default branch otherwise.
// wiki_blobs answers an empty list: Wharf has no wikis yet (a debt: search them once they exist).
// The parameters are checked before the group or project is looked up (`paramsFirst`): 10.8's
// endpoints found them in their body, after Grape's validation, so a bad scope is a 400 even there.
import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { route, type Route } from './core/route.js';
import { p } from '../http/params.js';
import { paginate, paginateArray, paginateWithoutCount } from '../http/pagination.js';
import { issueSearchQuery, mergeRequestSearchQuery, type SearchSource } from '../finders/search/issuables.js';
import { milestoneSearchQuery, projectMilestoneSearchQuery, projectSearchQuery } from '../finders/search/projects.js';
import { snippetSearchQuery } from '../finders/search/snippets.js';
import { searchBlobs } from '../finders/search/blobs.js';
import { searchCommitIds } from '../finders/search/commits.js';
import { noteSearchQuery } from '../finders/search/notes.js';
import { searchBlobEntity } from '../entities/search_blob.js';
import { presentSearchCommits, presentSearchRows, type SearchRow } from './present_search.js';
import { defaultRef, repositoryOf } from './repo_context.js';

const GLOBAL_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'snippet_blobs'];
const GROUP_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones'];
const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs'];

const paramsFor = (scopes: string[]) => ({ search: p.string().required(), scope: p.string().required().values(scopes) });

/** The scopes, for `make routes` and the OpenAPI document (the body is a list of the scope's entity). */
const SUMMARY_SCOPES = (scopes: string[]) => `scope: ${scopes.join(', ')}`;

/** The query of a database scope over many projects (or all snippets). */
function listQuery(deps: Deps, user: UserRow, source: SearchSource & { kind: 'group' | 'all' }, scope: string, term: string): Knex.QueryBuilder {
  const group = source.kind === 'group' ? source.group : undefined;
  if (scope === 'projects') return projectSearchQuery(deps.db, user, group, term);
  if (scope === 'issues') return issueSearchQuery(deps.db, user, source, term);
  if (scope === 'merge_requests') return mergeRequestSearchQuery(deps.db, user, source, term);
  if (scope === 'milestones') return milestoneSearchQuery(deps.db, user, group, term);
  return snippetSearchQuery(deps.db, user, scope as 'snippet_titles' | 'snippet_blobs', term);
}

async function searchMany(ctx: Koa.Context, deps: Deps, user: UserRow, source: SearchSource & { kind: 'group' | 'all' }, scope: string, term: string) {
  const query = listQuery(deps, user, source, scope, term);
  const counted = scope === 'snippet_titles' || scope === 'snippet_blobs';
  const rows = counted ? await paginate<SearchRow>(ctx, deps.db, query) : await paginateWithoutCount<SearchRow>(ctx, deps.db, query);
  return presentSearchRows(deps, user, scope, rows);
}

export const searchRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/search',
    auth: 'user',
    params: paramsFor(GLOBAL_SCOPES),
    summary: `Search everything the user may read (${SUMMARY_SCOPES(GLOBAL_SCOPES)})`,
    handler: ({ ctx, deps, user, params }) => searchMany(ctx, deps, user, { kind: 'all' }, params.scope, params.search),
  }),

  route({
    method: 'GET',
    path: '/groups/:id/search',
    auth: 'user',
    load: 'group',
    paramsFirst: true,
    params: paramsFor(GROUP_SCOPES),
    summary: `Search a group's projects (${SUMMARY_SCOPES(GROUP_SCOPES)})`,
    handler: ({ ctx, deps, user, group, params }) => searchMany(ctx, deps, user, { kind: 'group', group }, params.scope, params.search),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/search',
    auth: 'user',
    load: 'project',
    paramsFirst: true,
    params: { ...paramsFor(PROJECT_SCOPES), ref: p.string() },
    summary: `Search a project (${SUMMARY_SCOPES(PROJECT_SCOPES)})`,
    handler: async ({ ctx, deps, user, project, access, can, params: { scope, search, ref } }) => {
      const source: SearchSource = { kind: 'project', projectId: project.id, access };
      const rows = async (allowed: boolean, query: () => Knex.QueryBuilder) => {
        const q = query();
        if (!allowed) q.whereRaw('1 = 0');
        return presentSearchRows(deps, user, scope, await paginate<SearchRow>(ctx, deps.db, q));
      };
      if (scope === 'issues') return rows(can('read_issue'), () => issueSearchQuery(deps.db, user, source, search));
      if (scope === 'merge_requests') return rows(can('read_merge_request'), () => mergeRequestSearchQuery(deps.db, user, source, search));
      if (scope === 'milestones') return rows(can('read_milestone'), () => projectMilestoneSearchQuery(deps.db, project.id, search));
      if (scope === 'notes') {
        const reach = { issues: can('read_issue'), mergeRequests: can('read_merge_request'), code: can('download_code') };
        return rows(true, () => noteSearchQuery(deps.db, user, project, access, reach, search));
      }
      if (scope === 'wiki_blobs' || !can('download_code')) return paginateArray(ctx, []);
      const reader = repositoryOf(deps, project);
      const refName = ref ?? (await defaultRef(project, reader));
      const commit = await reader.resolveCommit(refName);
      if (!commit) return paginateArray(ctx, []);
      if (scope === 'blobs') return paginateArray(ctx, await searchBlobs(reader, commit, search)).map((hit) => searchBlobEntity(hit, refName, project.id));
      return presentSearchCommits(deps, project, paginateArray(ctx, await searchCommitIds(reader, commit, search)));
    },
  }),
];
