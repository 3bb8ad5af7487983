// Git LFS's endpoints of a repository while this server has no LFS (GitLab 10.8's
// LfsRequest#require_lfs_enabled! with `lfs: enabled: false`): the batch API
// (`<project>.git/info/lfs/objects/batch`), the legacy objects API, the locks API and the object
// storage (`<project>.git/gitlab-lfs/objects/<oid>`) answer 501 with GitLab's message, which
// `git lfs` prints; nothing else is read or written.
import type Koa from 'koa';
import type { Deps } from '../deps.js';

const LFS_DISABLED_MESSAGE = 'Git LFS is not enabled on this GitLab server, contact your admin.';

/** Whether `path` is one of a repository's LFS paths (plain string tests: nothing can backtrack). */
function isLfsPath(path: string): boolean {
  const at = path.indexOf('.git/');
  if (at <= 1) return false;
  const rest = path.slice(at + '.git/'.length);
  return rest === 'info/lfs' || rest.startsWith('info/lfs/') || rest.startsWith('gitlab-lfs/objects/');
}

export function lfsDisabledMiddleware(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/') || !isLfsPath(ctx.path)) return next();
    ctx.status = 501;
    ctx.type = 'application/json';
    ctx.body = { message: LFS_DISABLED_MESSAGE, documentation_url: `${deps.urls.base}/help` };
  };
}
