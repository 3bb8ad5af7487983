// Repository reads (GitLab 10.8 lib/api/repositories.rb and the GET half of lib/api/files.rb):
// tree, blobs, raw blobs, files and raw files.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { notFound } from '../http/errors.js';
import { p, parse } from '../http/params.js';
import { pageOf, paginateArray } from '../http/pagination.js';
import { loadRepository, defaultRef } from './repo_context.js';
import { lastCommitFor, pathNames } from '../git/log.js';
import { isBinary } from '../git/commit_stats.js';

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

/** `send_git_blob`: the bytes, inline. */
function sendBlob(ctx: Koa.Context, data: Uint8Array, name: string | null): void {
  ctx.status = 200;
  ctx.set('Content-Type', safeContentType(data, name));
  ctx.set('Content-Disposition', 'inline');
  ctx.body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

export function repositoryRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/projects/:id/repository/tree', async (ctx) => {
    const repo = await loadRepository(ctx, deps);
    const params = parse(ctx, { ref: p.string(), path: p.string(), recursive: p.boolean().default(false) });
    pageOf(ctx); // page/per_page errors before any git work
    const commitOid = await repo.reader.resolveCommit(params.ref ?? (await defaultRef(repo)));
    if (!commitOid) throw notFound('Tree');
    // 10.8 answered [] for a path that is not a directory; later GitLab (and the issue this
    // implements) answer 404 Tree Not Found, which tells a client its path is wrong.
    const names = pathNames(params.path ?? '');
    const entries = names === null ? null : await repo.reader.tree(commitOid, names.join('/'), params.recursive);
    if (!entries) throw notFound('Tree');
    ctx.body = paginateArray(ctx, entries);
  });

  const blobRoute = async (ctx: Koa.Context, raw: boolean) => {
    const repo = await loadRepository(ctx, deps);
    const blob = await repo.reader.blobById(ctx.params.sha);
    if (!blob) throw notFound('Blob');
    if (raw) return sendBlob(ctx, blob.content, null);
    ctx.body = { size: blob.content.byteLength, encoding: 'base64', content: Buffer.from(blob.content).toString('base64'), sha: blob.oid };
  };
  router.get('/projects/:id/repository/blobs/:sha', (ctx) => blobRoute(ctx, false));
  router.get('/projects/:id/repository/blobs/:sha/raw', (ctx) => blobRoute(ctx, true));

  /** Permission answers before `ref` is validated, as on every Wharf route. */
  const fileRoute = async (ctx: Koa.Context, raw: boolean) => {
    const filePath: string = ctx.params.file_path;
    const repo = await loadRepository(ctx, deps);
    const { ref } = parse(ctx, { ref: p.string().required() });
    const commitOid = await repo.reader.resolveCommit(ref);
    if (!commitOid) throw notFound('Commit');
    const names = pathNames(filePath);
    const blob = names && names.length ? await repo.reader.blobAt(commitOid, names.join('/')) : null;
    if (!blob) throw notFound('File');
    const fileName = names![names!.length - 1];
    if (raw) return sendBlob(ctx, blob.content, fileName);
    ctx.body = {
      file_name: fileName,
      file_path: filePath,
      size: blob.content.byteLength,
      encoding: 'base64',
      content: Buffer.from(blob.content).toString('base64'),
      ref,
      blob_id: blob.oid,
      commit_id: commitOid,
      last_commit_id: await lastCommitFor(repo.reader, commitOid, names!.join('/')),
    };
  };
  router.get('/projects/:id/repository/files/:file_path', (ctx) => fileRoute(ctx, false));
  router.get('/projects/:id/repository/files/:file_path/raw', (ctx) => fileRoute(ctx, true));

  return router;
}
