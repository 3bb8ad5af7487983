// Repository comparisons and downloads: commit diff, compare, contributors, archive
// (lib/api/repositories.rb and commits.rb in GitLab 10.8). Every route declares
// REPOSITORY_READ: download_code is checked before its parameters, as GitLab's `before`
// filter did.
import { HANDLED, route, type Route } from './core/route.js';
import { REPOSITORY_READ, repositoryOf } from './repo_context.js';
import { collect, commitChanges, SAFE_LIMITS } from '../git/diff.js';
import { compareCommits } from '../git/compare.js';
import { contributorsAt, sortContributors, type ContributorOrder } from '../git/contributors.js';
import { dbStatsStore } from '../git/stats_store.js';
import { archiveFormat, archiveStream, URL_FORMATS } from '../git/archive.js';
import { diffEntity } from '../entities/diff.js';
import { commitBasic } from '../entities/commit.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginateArray } from '../http/pagination.js';

/** A path wildcard arrives as its segments. */
const joined = (v: unknown) => (Array.isArray(v) ? v.join('/') : String(v ?? ''));

/**
 * The archive route, once without a suffix (`?format=`, default tar.gz) and once per suffix of
 * Gitlab::PathRegex.archive_formats_regex: GitLab's route `requirements`, so that another
 * suffix (`archive.rar`) is an unknown route (404 {"error"}) before any project lookup.
 */
function archiveRoute(suffix: string | undefined): Route {
  return route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: `/projects/:id/repository/archive${suffix === undefined ? '' : `.${suffix}`}`,
    params: { sha: p.string(), format: p.string() },
    summary: suffix === undefined ? 'Download an archive of a ref (format: zip, tar, tar.gz, tar.bz2 and aliases)' : `Download an archive of a ref as .${suffix}`,
    handler: async ({ ctx, deps, project, params }) => {
      const reader = repositoryOf(deps, project);
      const format = archiveFormat(suffix ?? params.format);
      const ref = params.sha ?? (await reader.headBranch()) ?? '';
      const oid = ref ? await reader.resolveCommit(ref) : null;
      if (!oid) throw notFound('File');
      // Gitlab::Git::Repository#archive_prefix with append_sha: the API always appends the id.
      const prefix = `${project.path}-${ref.replace(/\//g, '-')}-${oid}`;
      ctx.status = 200;
      ctx.type = format.contentType;
      // RFC 6266: a name beyond Latin-1 (a branch `ветка`) goes in filename*=UTF-8''…, with an
      // ASCII filename="…" beside it for older clients.
      const filename = `${prefix}.${format.ext}`;
      ctx.attachment(filename, { fallback: filename.replace(/[^\x20-\x7e]/g, '_') });
      ctx.set({ 'Content-Transfer-Encoding': 'binary', 'Cache-Control': 'private' });
      ctx.body = archiveStream(reader.gitdir, oid, prefix, format);
      return HANDLED;
    },
  });
}

export const compareRoutes: Route[] = [
  // Commit#raw_diffs: the DiffCollection with its default limits, then paginated.
  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/commits/*sha/diff',
    summary: "Get a commit's diff",
    response: { schema: 'Diff', list: true },
    handler: async ({ ctx, deps, project, path }) => {
      const reader = repositoryOf(deps, project);
      const oid = await reader.resolveCommit(joined(path.sha));
      if (!oid) throw notFound('Commit');
      const { diffs } = await collect(reader.gitdir, await commitChanges(reader.gitdir, oid), SAFE_LIMITS);
      return paginateArray(ctx, diffs).map(diffEntity);
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/compare',
    // `straight` arrived in GitLab 11; asked for here, default false keeps 10.8's answer.
    params: { from: p.string().required(), to: p.string().required(), straight: p.boolean().default(false) },
    summary: 'Compare two refs: the commits between them and the diffs',
    response: { schema: 'Compare' },
    handler: async ({ deps, project, params }) => {
      const reader = repositoryOf(deps, project);
      const [from, to] = await Promise.all([reader.resolveCommit(params.from.trim()), reader.resolveCommit(params.to.trim())]);
      if (!from || !to) {
        // Gitlab::Git::Compare with a missing side: no commits, no diffs, not "same".
        return { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: false };
      }
      const result = await compareCommits(reader, from, to, params.straight);
      const commits = result.commits.map(commitBasic);
      return {
        commit: commits.length ? commits[commits.length - 1] : null,
        commits,
        diffs: result.diffs.map(diffEntity),
        compare_timeout: result.timeout,
        compare_same_ref: result.same,
      };
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/contributors',
    params: {
      order_by: p.string().values(['email', 'name', 'commits']).default('commits'),
      sort: p.string().values(['asc', 'desc']).default('asc'),
    },
    summary: "List the contributors of the HEAD branch's history with their commits, additions and deletions",
    response: { schema: 'Contributor', list: true },
    handler: async ({ ctx, deps, project, params }) => {
      const reader = repositoryOf(deps, project);
      const branch = await reader.headBranch();
      const head = branch ? await reader.resolveCommit(branch) : null;
      // GitLab rescued any failure (an empty repository among them) into a bare 404.
      if (!head) throw notFound();
      const contributors = await contributorsAt(reader, head, dbStatsStore(deps.db));
      const list = sortContributors(contributors, params.order_by as ContributorOrder, params.sort as 'asc' | 'desc');
      // The pagination links carry the defaults, as GitLab's did (gitlab-ce#45363).
      ctx.state.query = { ...ctx.state.query, order_by: params.order_by, sort: params.sort };
      return paginateArray(ctx, list);
    },
  }),

  archiveRoute(undefined),
  ...URL_FORMATS.map(archiveRoute),
];
