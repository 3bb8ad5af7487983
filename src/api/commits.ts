// Commits (GitLab 10.8 lib/api/commits.rb; tags are api/tags.ts, comments api/commit_notes.ts):
// list and get them, and commit several file actions at once (POST, actions[] parsed by
// commit_actions.ts). A single commit carries its last pipeline (PipelineBasic) and that
// pipeline's status, as CommitDetail. The reads declare REPOSITORY_READ: the project (404) and
// download_code (403) come first; the POST asks push_code first, then its parameters, then
// the commit service, whose failures are 400 {"message": ...} in GitLab's words. Cherry-picking
// a commit onto a branch (POST .../commits/:sha/cherry_pick) is services/repository/cherry_pick.ts.
import { route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p, Param } from '../http/params.js';
import { commitFiles } from '../services/repository/file_writes.js';
import { cherryPick } from '../services/repository/cherry_pick.js';
import { parseActions } from './commit_actions.js';
import { pageOf, setPageHeaders } from '../http/pagination.js';
import { REPOSITORY_READ, defaultRef, repositoryOf } from './repo_context.js';
import { logIds } from '../git/log.js';
import { commitStats } from '../git/commit_stats.js';
import { commitBasic, commitDetail } from '../entities/commit.js';
import { pipelineBasic } from '../entities/pipeline.js';
import { lastPipelineFor } from '../finders/commit_statuses.js';

const NO_CHANGES = 'The commit would not change any file';

const seconds = (iso: string | undefined) => (iso === undefined ? undefined : Math.floor(Date.parse(iso) / 1000));

export const commitRoutes: Route[] = [
  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/commits',
    params: {
      ref_name: p.string(),
      since: p.datetime(),
      until: p.datetime(),
      path: p.string(),
      all: p.boolean(),
    },
    summary: "List a ref's commits (or all refs'), newest first, by path and date",
    response: { schema: 'Commit', list: true },
    handler: async ({ ctx, deps, project, params }) => {
      const page = pageOf(ctx);
      const reader = repositoryOf(deps, project);
      let starts: string[];
      if (params.all) {
        starts = await reader.allRefCommits();
      } else {
        // An unknown ref lists nothing (10.8 answers an empty page, not a 404).
        const oid = await reader.resolveCommit(params.ref_name ?? (await defaultRef(project, reader)));
        starts = oid ? [oid] : [];
      }
      const ids = await logIds(reader, starts, { path: params.path, since: seconds(params.since), until: seconds(params.until) });
      setPageHeaders(ctx, page, ids.length);
      const pageIds = ids.slice(page.offset, page.offset + page.perPage);
      // 10.8 runs `git log --all --reverse --skip --max-count`: git reverses after paging.
      if (params.all) pageIds.reverse();
      return Promise.all(pageIds.map(async (id) => commitBasic(await reader.commit(id))));
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha',
    params: { stats: p.boolean().default(true) },
    summary: 'Get a commit by sha, branch or tag name, with its stats',
    response: { schema: 'CommitDetail' },
    handler: async ({ deps, project, path, params: { stats } }) => {
      const reader = repositoryOf(deps, project);
      const oid = await reader.resolveCommit(path.sha);
      if (!oid) throw notFound('Commit');
      const commit = await reader.commit(oid);
      // Commit#last_pipeline and Commit#status: the project's newest pipeline at this commit.
      const last = await lastPipelineFor(deps.db, project.id, oid);
      return commitDetail(commit, {
        stats: stats ? await commitStats(reader, oid) : undefined,
        status: last?.status ?? null,
        lastPipeline: last ? pipelineBasic(last) : null,
        projectId: project.id,
      });
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/commits',
    auth: 'by_ability',
    load: 'project',
    ability: 'push_code',
    params: {
      branch: p.string().required(),
      commit_message: p.string().required(),
      actions: new Param<unknown, true>((x) => x, true), // checked by parseActions
      start_branch: p.string(),
      author_email: p.string(),
      author_name: p.string(),
      // Not in 10.8, whose response has no stats; `stats=true` (GitLab 11) adds them.
      stats: p.boolean().default(false),
    },
    summary: 'Commit several file actions (create, create_dir, update, move, delete, chmod) at once',
    response: { schema: 'CommitDetail' },
    handler: async ({ deps, loaded, params: v }) => {
      const { commit } = await commitFiles(deps, loaded, {
        branch: v.branch,
        startBranch: v.start_branch,
        message: v.commit_message,
        authorName: v.author_name,
        authorEmail: v.author_email,
        actions: parseActions(v.actions),
        staleMessage: (a) => `The file has changed since you started editing it: ${a.action === 'move' ? a.previousPath : 'filePath' in a ? a.filePath : ''}`,
        unchangedMessage: NO_CHANGES,
      });
      const reader = repositoryOf(deps, loaded.project);
      return commitDetail(commit, {
        stats: v.stats ? await commitStats(reader, commit.oid) : undefined,
        status: null,
        lastPipeline: null,
        projectId: loaded.project.id,
      });
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/commits/:sha/cherry_pick',
    auth: 'by_ability',
    load: 'project',
    ability: 'push_code',
    params: { branch: p.string().required() },
    summary: 'Cherry-pick a commit onto a branch as a new commit',
    response: { schema: 'Commit' },
    handler: async ({ deps, loaded, path, params }) => commitBasic(await cherryPick(deps, loaded, path.sha, params.branch)),
  }),
];
