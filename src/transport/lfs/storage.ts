// Git LFS object transfers (GitLab 10.8's Projects::LfsStorageController, and the basic
// transfer's verify action): `GET …/gitlab-lfs/objects/<oid>` streams an object the project
// has (one `Range` of bytes honoured, for resumed downloads), `PUT …/<oid>/<size>` streams the
// body into the store, checked against oid and size (services/lfs/objects.ts: 422 on a
// mismatch, nothing kept), `POST …/info/lfs/objects/verify` says whether the project has the
// object with that size. Nothing is ever held whole in memory.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { isLfsOid, LfsUploadRefused } from '../../git/lfs_store.js';
import { linkedLfsObjectSize } from '../../finders/lfs_objects.js';
import { lfsStore, storeLfsObject } from '../../services/lfs/objects.js';
import { lfsAccess } from './access.js';
import { LFS_MESSAGES, LfsRefusal, readLfsJson, sendLfs } from './answers.js';
import { byteRange } from './range.js';

export async function serveDownload(deps: Deps, ctx: Koa.Context, rawFullPath: string, oid: string): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'download');
  const store = lfsStore(deps);
  const size = (await linkedLfsObjectSize(deps.db, req.project.id, oid)) === null ? null : await store.sizeOf(oid);
  if (size === null) throw new LfsRefusal(404, LFS_MESSAGES.notFound);
  const range = byteRange(ctx.get('range'), size);
  ctx.set('Accept-Ranges', 'bytes');
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${size}`);
    throw new LfsRefusal(416, 'Requested range not satisfiable');
  }
  ctx.type = 'application/octet-stream';
  ctx.set('Cache-Control', 'private, no-transform');
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  } else ctx.status = 200;
  ctx.length = range ? range.end - range.start + 1 : size;
  if (ctx.method === 'HEAD' || ctx.length === 0) return;
  ctx.body = store.read(oid, range ?? undefined);
}

export async function serveUpload(deps: Deps, ctx: Koa.Context, rawFullPath: string, oid: string, size: number): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'upload');
  const limit = deps.config.lfsMaxObjectBytes;
  if (!Number.isSafeInteger(size) || (limit > 0 && size > limit)) throw new LfsRefusal(413, `The object is larger than the ${limit} bytes this server accepts`);
  try {
    await storeLfsObject(deps, req.project, oid, size, ctx.req);
  } catch (err) {
    if (ctx.req.destroyed && !(err instanceof LfsUploadRefused)) {
      ctx.status = 400; // the client went away mid-body: nothing was kept, nobody to answer
      return;
    }
    if (!(err instanceof LfsUploadRefused)) throw err;
    ctx.status = 422;
    ctx.type = 'text/plain';
    ctx.body = 'Unprocessable entity';
    return;
  }
  ctx.status = 200;
  ctx.body = '';
}

export async function serveVerify(deps: Deps, ctx: Koa.Context, rawFullPath: string): Promise<void> {
  const req = await lfsAccess(deps, ctx, rawFullPath, 'download');
  const body = await readLfsJson(ctx);
  if (!isLfsOid(body.oid) || !Number.isSafeInteger(body.size)) throw new LfsRefusal(422, 'Invalid object: the oid must be 64 hexadecimal characters and the size a whole number');
  const size = await linkedLfsObjectSize(deps.db, req.project.id, body.oid);
  if (size === null) throw new LfsRefusal(404, LFS_MESSAGES.notFound);
  if (size !== body.size) throw new LfsRefusal(422, `The object is ${size} bytes, not ${String(body.size)}`);
  sendLfs(ctx, 200, {});
}
