// Repository reads (GitLab 10.8 lib/api/repositories.rb and the GET half of lib/api/files.rb):
// tree, blobs, raw blobs, files and raw files. Each route declares REPOSITORY_READ: the
// project (404) and download_code (403) are checked before any parameter.
import type Koa from 'koa';
import { HANDLED, route, type Route } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { pageOf, paginateArray } from '../http/pagination.js';
import { REPOSITORY_READ, defaultRef, repositoryOf } from './repo_context.js';
import { lastCommitFor, pathNames } from '../git/log.js';
import { isBinary } from '../git/commit_stats.js';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';

/** Extensions Linguist calls images; their binary blobs are served with their own type. */
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif' };

/**
 * GitLab's `safe_content_type`: text as UTF-8 plain text, images by extension, anything else
 * as an octet stream, so a browser never runs repository content.
 */
function safeContentType(data: Uint8Array, name: string | null): string {
  if (!isBinary(data)) return 'text/plain; charset=utf-8';
  const ext = name && name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
  return IMAGE_TYPES[ext] ?? 'application/octet-stream';
}

/** `send_git_blob`: the bytes, inline (the route then returns HANDLED). */
function sendBlob(ctx: Koa.Context, data: Uint8Array, name: string | null): typeof HANDLED {
  ctx.status = 200;
  ctx.set('Content-Type', safeContentType(data, name));
  ctx.set('Content-Disposition', 'inline');
  ctx.body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return HANDLED;
}

async function blobRoute(ctx: Koa.Context, deps: Deps, project: ProjectWithNamespace, sha: string, raw: boolean) {
  const blob = await repositoryOf(deps, project).blobById(sha);
  if (!blob) throw notFound('Blob');
  if (raw) return sendBlob(ctx, blob.content, null);
  return { size: blob.content.byteLength, encoding: 'base64', content: Buffer.from(blob.content).toString('base64'), sha: blob.oid };
}

/** A file at a ref: `ref` is validated after the permission (REPOSITORY_READ), as on every Wharf route. */
async function fileRoute(ctx: Koa.Context, deps: Deps, project: ProjectWithNamespace, filePath: string, ref: string, raw: boolean) {
  const reader = repositoryOf(deps, project);
  const commitOid = await reader.resolveCommit(ref);
  if (!commitOid) throw notFound('Commit');
  const names = pathNames(filePath);
  const blob = names && names.length ? await reader.blobAt(commitOid, names.join('/')) : null;
  if (!blob) throw notFound('File');
  const fileName = names![names!.length - 1];
  if (raw) return sendBlob(ctx, blob.content, fileName);
  return {
    file_name: fileName,
    file_path: filePath,
    size: blob.content.byteLength,
    encoding: 'base64',
    content: Buffer.from(blob.content).toString('base64'),
    ref,
    blob_id: blob.oid,
    commit_id: commitOid,
    last_commit_id: await lastCommitFor(reader, commitOid, names!.join('/')),
  };
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

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/files/:file_path',
    params: { ref: p.string().required() },
    summary: 'Get a file at a ref (base64 content, blob and commit ids)',
    response: { schema: 'RepositoryFile' },
    handler: ({ ctx, deps, project, path, params }) => fileRoute(ctx, deps, project, path.file_path, params.ref, false),
  }),

  route({
    ...REPOSITORY_READ,
    method: 'GET',
    path: '/projects/:id/repository/files/:file_path/raw',
    params: { ref: p.string().required() },
    summary: "Get a file's raw bytes at a ref",
    handler: ({ ctx, deps, project, path, params }) => fileRoute(ctx, deps, project, path.file_path, params.ref, true),
  }),
];
