// How the Git LFS endpoints answer, as GitLab 10.8's LfsRequest renders them: JSON of type
// `application/vnd.git-lfs+json` (what the LFS client expects), errors as `{message,
// documentation_url}` with GitLab's messages; and the request bodies they read (JSON, bounded).
import type Koa from 'koa';
import type { Deps } from '../../deps.js';

const LFS_CONTENT_TYPE = 'application/vnd.git-lfs+json';

export const LFS_MESSAGES = {
  disabled: 'Git LFS is not enabled on this GitLab server, contact your admin.',
  forbidden: 'Access forbidden. Check your access level.',
  notFound: 'Not found.',
  legacy: 'Server supports batch API only, please update your Git LFS client to version 1.0.1 and up.',
  missingObject: "Object does not exist on the server or you don't have permissions to access it",
} as const;

/** A refusal of an LFS request, answered as JSON: `{...extra, message, documentation_url}`. */
export class LfsRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Serialized here: an object body would be sent as `application/json` (http/errors.ts). */
export function sendLfs(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = Buffer.from(JSON.stringify(body));
  ctx.type = LFS_CONTENT_TYPE;
}

export function sendLfsError(deps: Deps, ctx: Koa.Context, status: number, message: string, extra: Record<string, unknown> = {}): void {
  sendLfs(ctx, status, { ...extra, message, documentation_url: `${deps.urls.base}/help` });
}

/** Bigger than any batch or lock request a client sends (100 objects a batch by default). */
const MAX_JSON_BYTES = 1024 * 1024;

/** The request's JSON object; an LfsRefusal (400, or 413) when it is none. */
export async function readLfsJson(ctx: Koa.Context): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of ctx.req) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_JSON_BYTES) throw new LfsRefusal(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LfsRefusal(400, 'Invalid JSON in the request body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LfsRefusal(400, 'The request body must be a JSON object');
  return value as Record<string, unknown>;
}
