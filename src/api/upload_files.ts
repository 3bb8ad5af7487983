// Serves files uploaded to projects at the URL POST /projects/:id/uploads answers, relative to
// the project's web URL: `/<namespace>/<project>/uploads/<secret>/<filename>` (GitLab 10.8's
// Projects::UploadsController#show): to whoever may read the project (a token, as on the API),
// else 404. The path's parts are only compared with stored values; the file is found by the
// content digest its row names. Images and videos are shown inline, anything else is sent as
// an attachment, with nosniff, so an uploaded page can never run as the site's own.
import fs from 'node:fs';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { notFound } from '../http/errors.js';
import { findUpload } from '../finders/uploads.js';
import { uploadPath } from '../services/uploads/store.js';
import { isImageOrVideo } from '../services/uploads/names.js';
import { loadProject } from './core/loaders.js';

function isSecret(s: string): boolean {
  if (s.length !== 32) return false;
  for (const ch of s) if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return false;
  return true;
}

/** `namespace/project`, secret and file name of an upload's path, or null. */
function parsePath(p: string): { project: string; secret: string; filename: string } | null {
  const parts = p.split('/');
  if (parts.length < 6 || parts[0] !== '' || parts[parts.length - 3] !== 'uploads') return null;
  const [secret, filename] = parts.slice(-2);
  if (!isSecret(secret) || !filename) return null;
  try {
    return { project: parts.slice(1, -3).map(decodeURIComponent).join('/'), secret, filename: decodeURIComponent(filename) };
  } catch {
    return null;
  }
}

/** `auth` is the API's authentication middleware (the token, if any, names the reader). */
export function uploadFiles(deps: Deps, auth: Koa.Middleware): Koa.Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/')) return next();
    const parsed = parsePath(ctx.path);
    if (!parsed) return next();
    await auth(ctx, async () => {
      ctx.params = { id: parsed.project };
      const { project } = await loadProject(ctx, deps);
      const upload = await findUpload(deps.db, project.id, parsed.secret, parsed.filename);
      if (!upload) throw notFound('File');
      const file = uploadPath(deps.repos.root, upload.sha256);
      if (!(await fs.promises.stat(file).catch(() => null))) throw notFound('File');
      ctx.status = 200;
      ctx.attachment(parsed.filename, { type: isImageOrVideo(parsed.filename) ? 'inline' : 'attachment' }); // the type from the extension
      if (!ctx.type) ctx.type = 'application/octet-stream';
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.length = Number(upload.size);
      if (ctx.method === 'HEAD') return;
      ctx.body = fs.createReadStream(file);
    });
  };
}
