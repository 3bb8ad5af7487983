// Conditional DELETE: GitLab refuses with 412 when `If-Unmodified-Since` is older than the
// record's last change. An unparseable header is ignored, as GitLab ignores it.
import type Koa from 'koa';
import { ApiError } from './errors.js';

export function checkUnmodifiedSince(ctx: Koa.Context, updatedAt: string | null | undefined): void {
  const header = ctx.get('if-unmodified-since');
  if (!header || !updatedAt) return;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return;
  if (Date.parse(updatedAt) > since) throw new ApiError(412, { message: '412 Precondition Failed' });
}
