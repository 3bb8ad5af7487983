// Serves uploaded avatars at the paths GitLab 10.8's AvatarUploader gives them,
// `/uploads/-/system/<user|project|group>/avatar/<id>/<filename>` (what `avatar_url` shows).
// As 10.8's UploadsController: a user's avatar is anyone's to see; a project's or a group's
// only for whoever may read the project or group (a token, as on the API), else 404. The
// path's parts are only compared with stored values, never joined into a file path. Answers
// carry the image's type, nosniff, and a validator for conditional GETs.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { findAvatar, type AvatarModel } from '../services/avatars.js';
import { currentUser } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { groupSubjectOf, loadProject } from './core/loaders.js';
import { storableId } from '../store/stored_values.js';

const PREFIX = '/uploads/-/system/';
const MODELS: readonly string[] = ['user', 'project', 'group'];

function isId(s: string): boolean {
  if (s.length === 0 || s.length > 15) return false;
  for (const ch of s) if (ch < '0' || ch > '9') return false;
  return true;
}

/** `auth` is the API's authentication middleware (the token, if any, names the reader). */
export function avatarFiles(deps: Deps, auth: Koa.Middleware): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const [model, avatar, id, filename, ...rest] = ctx.path.slice(PREFIX.length).split('/');
    if (!MODELS.includes(model) || avatar !== 'avatar' || !isId(id ?? '') || !filename || rest.length) return next();
    await auth(ctx, async () => {
      const ownerId = storableId(id);
      if (ownerId === null) throw notFound('Avatar'); // beyond any id (PostgreSQL's integer would refuse it)
      if (model === 'project') {
        ctx.params = { id };
        await loadProject(ctx, deps);
      } else if (model === 'group') {
        await groupSubjectOf(deps, currentUser(ctx), id);
      }
      const image = await findAvatar(deps.db, model as AvatarModel, ownerId, filename);
      if (!image) throw notFound('Avatar');
      ctx.status = 200;
      ctx.etag = `W/"${image.data.length.toString(16)}-${Date.parse(image.createdAt).toString(16)}"`;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', model === 'user' ? 'public, max-age=3600' : 'private, max-age=3600');
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.type = image.contentType;
      ctx.body = image.data;
    });
  };
}
