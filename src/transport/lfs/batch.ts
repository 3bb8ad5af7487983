// The Git LFS Batch API (`POST …/info/lfs/objects/batch`, GitLab 10.8's Projects::LfsApiController#batch):
// for `download`, an action to fetch each object the project has (404 for each it has not:
// objects of other projects are never offered); for `upload`, an action to send each object
// the project lacks, none for those it has (so a second push of the same file sends nothing),
// and a verify action. Only the `basic` transfer and SHA-256 oids; the actions carry back the
// request's Authorization header, as GitLab does, so that SSH-issued tokens keep working.
// Malformed objects get a per-object 422, objects over WHARF_LFS_MAX_OBJECT_MB a 413.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { isLfsOid } from '../../git/lfs_store.js';
import { linkedLfsObjects } from '../../finders/lfs_objects.js';
import { anonymousMayDownload } from '../../policy/lfs.js';
import { fullPathOf } from '../../finders/projects.js';
import { lfsAccess, type LfsRequest } from './access.js';
import { LFS_MESSAGES, LfsRefusal, readLfsJson, sendLfs } from './answers.js';

/** More than any client sends at once (git-lfs: 100); a bound on one request's work. */
const MAX_OBJECTS = 1000;

interface BatchObject {
  oid: string;
  size: number;
  authenticated?: boolean;
  actions?: Record<string, { href: string; header?: Record<string, string> }>;
  error?: { code: number; message: string };
}

function wellFormed(o: unknown): o is { oid: string; size: number } {
  const v = o as { oid?: unknown; size?: unknown } | null;
  return typeof v === 'object' && v !== null && isLfsOid(v.oid) && Number.isSafeInteger(v.size) && (v.size as number) >= 0;
}

function actionHeader(ctx: Koa.Context): Record<string, string> | undefined {
  const authorization = ctx.get('authorization');
  return authorization ? { Authorization: authorization } : undefined;
}

function answerObject(deps: Deps, ctx: Koa.Context, req: LfsRequest, upload: boolean, raw: unknown, have: Map<string, number>): BatchObject {
  if (!wellFormed(raw)) {
    const v = raw as { oid?: unknown; size?: unknown } | null;
    return {
      oid: String(v?.oid ?? ''),
      size: Number(v?.size ?? 0),
      error: { code: 422, message: 'Invalid object: the oid must be 64 hexadecimal characters and the size a whole number' },
    };
  }
  const { oid, size } = raw;
  const repo = deps.urls.httpRepo(fullPathOf(req.project));
  const header = actionHeader(ctx);
  const stored = have.get(oid);
  if (!upload) {
    if (stored === undefined) return { oid, size, error: { code: 404, message: LFS_MESSAGES.missingObject } };
    const answer: BatchObject = { oid, size: stored, actions: { download: { href: `${repo}/gitlab-lfs/objects/${oid}`, header } } };
    if (anonymousMayDownload(req.project)) answer.authenticated = true;
    return answer;
  }
  if (stored !== undefined) return { oid, size: stored };
  const limit = deps.config.lfsMaxObjectBytes;
  if (limit > 0 && size > limit) return { oid, size, error: { code: 413, message: `The object is larger than the ${limit} bytes this server accepts` } };
  return {
    oid,
    size,
    actions: {
      upload: { href: `${repo}/gitlab-lfs/objects/${oid}/${size}`, header },
      verify: { href: `${repo}/info/lfs/objects/verify`, header },
    },
  };
}

export async function serveBatch(deps: Deps, ctx: Koa.Context, rawFullPath: string): Promise<void> {
  // Whoever may not even read the project is refused before the body is read (a push implies a
  // read); an upload is then checked as one. An unknown operation stays a read.
  const read = await lfsAccess(deps, ctx, rawFullPath, 'download');
  const body = await readLfsJson(ctx);
  const upload = body.operation === 'upload';
  const req = upload ? await lfsAccess(deps, ctx, rawFullPath, 'upload') : read;
  if (!upload && body.operation !== 'download') throw new LfsRefusal(422, 'The operation must be "download" or "upload"');
  if (body.hash_algo !== undefined && body.hash_algo !== 'sha256') throw new LfsRefusal(409, 'The hash algorithm must be sha256');
  const transfers = body.transfers;
  if (Array.isArray(transfers) && transfers.length > 0 && !transfers.includes('basic')) throw new LfsRefusal(422, 'Only the basic transfer is supported');
  const objects = body.objects;
  if (!Array.isArray(objects) || objects.length === 0) throw new LfsRefusal(404, LFS_MESSAGES.notFound);
  if (objects.length > MAX_OBJECTS) throw new LfsRefusal(413, `At most ${MAX_OBJECTS} objects in one batch request`);
  const oids = [...new Set(objects.filter(wellFormed).map((o) => o.oid))];
  const have = await linkedLfsObjects(deps.db, req.project.id, oids);
  sendLfs(ctx, 200, { transfer: 'basic', objects: objects.map((o) => answerObject(deps, ctx, req, upload, o, have)), hash_algo: 'sha256' });
}
