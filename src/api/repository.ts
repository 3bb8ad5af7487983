// Repository reads (GitLab 10.8 lib/api/repositories.rb): the tree, blobs and raw blobs (files
// at a ref are api/files.ts). Each route declares REPOSITORY_READ: the project (404) and
// download_code (403) are checked before any parameter.
import type Koa from 'koa';
import { route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { pageOf, paginateArray } from '../http/pagination.js';
import { REPOSITORY_READ, defaultRef, repositoryOf } from './repo_context.js';
import { pathNames } from '../git/log.js';
import { sendBlob } from './raw_blobs.js';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';

async function blobRoute(ctx: Koa.Context, deps: Deps, project: ProjectWithNamespace, sha: string, raw: boolean) {
  const blob = await repositoryOf(deps, project).blobById(sha);
  if (!blob) throw notFound('Blob');
  if (raw) return sendBlob(ctx, blob.content, null);
  return { size: blob.content.byteLength, encoding: 'base64', content: Buffer.from(blob.content).toString('base64'), sha: blob.oid };
}

export const repositoryRoutes: Route[] = [
  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/tree',
    params: { ref: p.string(), path: p.string(), recursive: p.boolean().default(false) },
    summary: 'List the files and directories of a tree at a ref (recursive on request)',
    response: { schema: 'TreeObject', list: true },
    handler: async ({ ctx, deps, project, params }) => {
      pageOf(ctx); // page/per_page errors before any git work
      const reader = repositoryOf(deps, project);
      const commitOid = await reader.resolveCommit(params.ref ?? (await defaultRef(project, reader)));
      if (!commitOid) throw notFound('Tree');
      // 10.8 answered [] for a path that is not a directory; later GitLab (and Wharf) answer
      // 404 Tree Not Found, which tells a client its path is wrong.
      const names = pathNames(params.path ?? '');
      const entries = names === null ? null : await reader.tree(commitOid, names.join('/'), params.recursive);
      if (!entries) throw notFound('Tree');
      return paginateArray(ctx, entries);
    },
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/blobs/:sha',
    summary: 'Get a blob by id (base64 content and size)',
    response: { schema: 'Blob' },
    handler: ({ ctx, deps, project, path }) => blobRoute(ctx, deps, project, path.sha, false),
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/blobs/:sha/raw',
    summary: "Get a blob's raw bytes by id",
    handler: ({ ctx, deps, project, path }) => blobRoute(ctx, deps, project, path.sha, true),
  }),
];
