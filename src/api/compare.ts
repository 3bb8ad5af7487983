// Repository comparisons and downloads: commit diff, compare, contributors, archive
// (lib/api/repositories.rb and commits.rb in GitLab 10.8). Every route checks download_code
// before looking at its parameters, as GitLab's `before` filter did.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { loadProject } from './loaders.js';
import { fullPathOf } from '../finders/projects.js';
import { RepoReader } from '../git/reader.js';
import { collect, commitChanges, SAFE_LIMITS } from '../git/diff.js';
import { compareCommits } from '../git/compare.js';
import { contributorsAt, sortContributors, type ContributorOrder } from '../git/contributors.js';
import { dbStatsStore } from '../git/stats_store.js';
import { archiveFormat, archiveStream, URL_FORMATS } from '../git/archive.js';
import { diffEntity } from '../entities/diff.js';
import { commitBasic } from '../entities/commit.js';
import { notFound } from '../http/errors.js';
import { p, parse } from '../http/params.js';
import { paginateArray } from '../http/pagination.js';

async function openRepository(ctx: Koa.Context, deps: Deps) {
  const loaded = await loadProject(ctx, deps);
  loaded.authorize('download_code');
  return { loaded, reader: new RepoReader(deps.repos.pathFor(fullPathOf(loaded.project))) };
}

/** A path wildcard arrives as its segments. */
const joined = (v: unknown) => (Array.isArray(v) ? v.join('/') : String(v ?? ''));

export function compareRouter(deps: Deps): Router {
  const router = new Router();
  const stats = dbStatsStore(deps.db);

  // Commit#raw_diffs: the DiffCollection with its default limits, then paginated.
  router.get('/projects/:id/repository/commits/*sha/diff', async (ctx) => {
    const { reader } = await openRepository(ctx, deps);
    const oid = await reader.resolveCommit(joined(ctx.params.sha));
    if (!oid) throw notFound('Commit');
    const { diffs } = await collect(reader.gitdir, await commitChanges(reader.gitdir, oid), SAFE_LIMITS);
    ctx.body = paginateArray(ctx, diffs).map(diffEntity);
  });

  router.get('/projects/:id/repository/compare', async (ctx) => {
    const { reader } = await openRepository(ctx, deps);
    // `straight` arrived in GitLab 11; asked for here, default false keeps 10.8's answer.
    const params = parse(ctx, { from: p.string().required(), to: p.string().required(), straight: p.boolean().default(false) });
    const [from, to] = await Promise.all([reader.resolveCommit(params.from.trim()), reader.resolveCommit(params.to.trim())]);
    if (!from || !to) {
      // Gitlab::Git::Compare with a missing side: no commits, no diffs, not "same".
      ctx.body = { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: false };
      return;
    }
    const result = await compareCommits(reader, from, to, params.straight);
    const commits = result.commits.map(commitBasic);
    ctx.body = {
      commit: commits.length ? commits[commits.length - 1] : null,
      commits,
      diffs: result.diffs.map(diffEntity),
      compare_timeout: result.timeout,
      compare_same_ref: result.same,
    };
  });

  router.get('/projects/:id/repository/contributors', async (ctx) => {
    const { reader } = await openRepository(ctx, deps);
    const params = parse(ctx, {
      order_by: p.string().values(['email', 'name', 'commits']).default('commits'),
      sort: p.string().values(['asc', 'desc']).default('asc'),
    });
    const branch = await reader.headBranch();
    const head = branch ? await reader.resolveCommit(branch) : null;
    // GitLab rescued any failure (an empty repository among them) into a bare 404.
    if (!head) throw notFound();
    const list = sortContributors(await contributorsAt(reader, head, stats), params.order_by as ContributorOrder, params.sort as 'asc' | 'desc');
    // The pagination links carry the defaults, as GitLab's did (gitlab-ce#45363).
    ctx.state.query = { ...ctx.state.query, order_by: params.order_by, sort: params.sort };
    ctx.body = paginateArray(ctx, list);
  });

  const archive = async (ctx: Koa.Context, next: Koa.Next) => {
    const suffix = ctx.params.format as string | undefined;
    // Only GitLab's archive formats make a route; `archive.rar` is an unknown route.
    if (suffix !== undefined && !URL_FORMATS.includes(suffix.toLowerCase())) return next();
    const { loaded, reader } = await openRepository(ctx, deps);
    const params = parse(ctx, { sha: p.string(), format: p.string() });
    const format = archiveFormat(suffix ?? params.format);
    const ref = params.sha ?? (await reader.headBranch()) ?? '';
    const oid = ref ? await reader.resolveCommit(ref) : null;
    if (!oid) throw notFound('File');
    // Gitlab::Git::Repository#archive_prefix with append_sha: the API always appends the id.
    const prefix = `${loaded.project.path}-${ref.replace(/\//g, '-')}-${oid}`;
    ctx.type = format.contentType;
    // RFC 6266: a name beyond Latin-1 (a branch `ветка`) goes in filename*=UTF-8''…, with an
    // ASCII filename="…" beside it for older clients.
    const filename = `${prefix}.${format.ext}`;
    ctx.attachment(filename, { fallback: filename.replace(/[^\x20-\x7e]/g, '_') });
    ctx.set({ 'Content-Transfer-Encoding': 'binary', 'Cache-Control': 'private' });
    ctx.body = archiveStream(reader.gitdir, oid, prefix, format);
  };
  router.get('/projects/:id/repository/archive{.:format}', archive);

  return router;
}
