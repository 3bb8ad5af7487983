// What the two snippet route families share: the visibility parameter, the request's origin
// (kept with a new snippet as GitLab's UserAgentDetail), the raw answer, and the user agent
// detail route's answer.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { SnippetRow } from '../store/snippet_rows.js';
import { HANDLED } from './core/route.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { VISIBILITIES, visibilityLevel, type Visibility } from '../policy/levels.js';
import { findUserAgentDetail } from '../finders/snippets.js';
import { userAgentDetailEntity } from '../entities/snippet.js';
import type { RequestOrigin } from '../services/snippets/snippets.js';

/** `visibility`: private, internal or public (Gitlab::VisibilityLevel.string_values). */
export const visibilityParam = () => p.string().values(VISIBILITIES as unknown as string[]);

/** The level of a `visibility` value; undefined when none was given (a JSON null changes nothing). */
export function levelOf(visibility: string | null | undefined): number | undefined {
  return visibility === undefined || visibility === null ? undefined : visibilityLevel(visibility as Visibility);
}

/** The request's user agent and client address (an IPv4 client as IPv4, not IPv4-mapped IPv6). */
export function originOf(ctx: Koa.Context): RequestOrigin {
  const ip = ctx.request.ip ?? '';
  return { userAgent: ctx.get('user-agent') || undefined, ipAddress: ip.startsWith('::ffff:') ? ip.slice(7) : ip };
}

/** The snippet's content as GitLab's raw endpoints serve it: `text/plain`, exactly. */
export function sendRaw(ctx: Koa.Context, snippet: SnippetRow): typeof HANDLED {
  ctx.status = 200;
  ctx.set('Content-Type', 'text/plain');
  ctx.body = Buffer.from(snippet.content, 'utf8');
  return HANDLED;
}

/** The user agent detail of a snippet, or `404 UserAgentDetail Not Found`. */
export async function userAgentDetailOf(deps: Deps, snippet: SnippetRow) {
  const detail = await findUserAgentDetail(deps.db, snippet.id);
  if (!detail) throw notFound('UserAgentDetail');
  return userAgentDetailEntity(detail);
}
