// Commits and tags reads (GitLab 10.8 lib/api/commits.rb GET routes, lib/api/tags.rb GET routes).
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { notFound } from '../http/errors.js';
import { p, parse } from '../http/params.js';
import { pageOf, paginateArray, setPageHeaders } from '../http/pagination.js';
import { loadRepository, defaultRef } from './repo_context.js';
import { logIds } from '../git/log.js';
import { commitStats } from '../git/commit_stats.js';
import { compareVersions } from '../git/version_sort.js';
import { commitBasic, commitDetail } from '../entities/commit.js';
import { tagEntity } from '../entities/tag.js';
import type { RepoReader, TagRef } from '../git/reader.js';

const seconds = (iso: string | undefined) => (iso === undefined ? undefined : Math.floor(Date.parse(iso) / 1000));

async function tagCommit(reader: RepoReader, tag: TagRef) {
  return tag.commitOid ? reader.commit(tag.commitOid) : null;
}

export function commitsRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/projects/:id/repository/commits', async (ctx) => {
    const repo = await loadRepository(ctx, deps);
    const params = parse(ctx, {
      ref_name: p.string(),
      since: p.datetime(),
      until: p.datetime(),
      path: p.string(),
      all: p.boolean(),
    });
    const page = pageOf(ctx);
    let starts: string[];
    if (params.all) {
      starts = await repo.reader.allRefCommits();
    } else {
      // An unknown ref lists nothing (10.8 answers an empty page, not a 404).
      const oid = await repo.reader.resolveCommit(params.ref_name ?? (await defaultRef(repo)));
      starts = oid ? [oid] : [];
    }
    const ids = await logIds(repo.reader, starts, { path: params.path, since: seconds(params.since), until: seconds(params.until) });
    setPageHeaders(ctx, page, ids.length);
    const pageIds = ids.slice(page.offset, page.offset + page.perPage);
    // 10.8 runs `git log --all --reverse --skip --max-count`: git reverses after paging.
    if (params.all) pageIds.reverse();
    ctx.body = await Promise.all(pageIds.map(async (id) => commitBasic(await repo.reader.commit(id))));
  });

  router.get('/projects/:id/repository/commits/:sha', async (ctx) => {
    const repo = await loadRepository(ctx, deps);
    const { stats } = parse(ctx, { stats: p.boolean().default(true) });
    const oid = await repo.reader.resolveCommit(ctx.params.sha);
    if (!oid) throw notFound('Commit');
    const commit = await repo.reader.commit(oid);
    ctx.body = commitDetail(commit, {
      stats: stats ? await commitStats(repo.reader, oid) : undefined,
      // No pipelines exist yet: no status, no last pipeline.
      status: null,
      lastPipeline: null,
      projectId: repo.loaded.project.id,
    });
  });

  router.get('/projects/:id/repository/tags', async (ctx) => {
    const repo = await loadRepository(ctx, deps);
    const { sort, order_by } = parse(ctx, {
      sort: p.string().values(['asc', 'desc']).default('desc'),
      order_by: p.string().values(['name', 'updated']).default('updated'),
    });
    pageOf(ctx);
    const tags = await repo.reader.tagRefs();
    let sorted: TagRef[];
    if (order_by === 'name') {
      sorted = [...tags].sort((a, b) => compareVersions(a.name, b.name));
    } else {
      // By the tagged commit's date; a tag without a commit counts as "now" (last).
      const now = Math.floor(Date.now() / 1000);
      const dates = new Map<string, number>();
      for (const t of tags) dates.set(t.name, (await tagCommit(repo.reader, t))?.committer.timestamp ?? now);
      sorted = [...tags].sort((a, b) => dates.get(a.name)! - dates.get(b.name)!);
    }
    if (sort === 'desc') sorted.reverse();
    const page = paginateArray(ctx, sorted);
    ctx.body = await Promise.all(page.map(async (t) => tagEntity(t, await tagCommit(repo.reader, t))));
  });

  router.get('/projects/:id/repository/tags/:tag_name', async (ctx) => {
    const repo = await loadRepository(ctx, deps);
    const tag = (await repo.reader.tagRefs()).find((t) => t.name === ctx.params.tag_name);
    if (!tag) throw notFound('Tag');
    ctx.body = tagEntity(tag, await tagCommit(repo.reader, tag));
  });

  return router;
}
