// Git LFS over HTTP at a repository's URL (`<namespace>/<project>.git/info/lfs/…` and
// `…/gitlab-lfs/objects/…`, paths.ts), mounted before the API's body parser: uploads are
// streams. With LFS off for the server (WHARF_LFS_ENABLED=false) every LFS path answers 501
// with GitLab's message, which the LFS client prints; the legacy (pre-batch) API always does.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { GitHttpError } from '../http_auth.js';
import { LFS_MESSAGES, LfsRefusal, sendLfsError } from './answers.js';
import { parseLfsPath, type LfsAction } from './paths.js';
import { serveBatch } from './batch.js';
import { serveDownload, serveUpload, serveVerify } from './storage.js';
import { serveLock, serveLocks, serveLocksVerify, serveUnlock } from './locks.js';

function serve(deps: Deps, ctx: Koa.Context, raw: string, action: LfsAction): Promise<void> | void {
  switch (action.kind) {
    case 'batch':
      return serveBatch(deps, ctx, raw);
    case 'verify':
      return serveVerify(deps, ctx, raw);
    case 'download':
      return serveDownload(deps, ctx, raw, action.oid);
    case 'upload':
      return serveUpload(deps, ctx, raw, action.oid, action.size);
    case 'locks':
      return serveLocks(deps, ctx, raw);
    case 'lock':
      return serveLock(deps, ctx, raw);
    case 'locks_verify':
      return serveLocksVerify(deps, ctx, raw);
    case 'unlock':
      return serveUnlock(deps, ctx, raw, action.id);
    case 'legacy':
      return sendLfsError(deps, ctx, 501, LFS_MESSAGES.legacy);
    case 'unknown':
      return sendLfsError(deps, ctx, 404, LFS_MESSAGES.notFound);
  }
}

export function lfsMiddleware(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) return next();
    const parsed = parseLfsPath(ctx.method, ctx.path);
    if (!parsed) return next();
    ctx.state.routeTemplate = `/:namespace/:project.git/lfs/${parsed.action.kind}`; // the metrics' route label
    if (!deps.config.lfsEnabled) return sendLfsError(deps, ctx, 501, LFS_MESSAGES.disabled);
    try {
      await serve(deps, ctx, parsed.rawFullPath, parsed.action);
    } catch (err) {
      if (err instanceof LfsRefusal) return sendLfsError(deps, ctx, err.status, err.message, err.extra);
      if (!(err instanceof GitHttpError) || ctx.headerSent) throw err;
      ctx.status = err.status;
      ctx.set(err.headers);
      ctx.type = 'text/plain';
      ctx.body = err.body;
    }
  };
}
