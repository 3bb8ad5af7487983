// Raw repository bytes as GitLab 10.8 sends them (`send_git_blob` with `safe_content_type`),
// for the raw blob and raw file routes: inline, text as UTF-8 plain text, images by their
// extension, anything else as an octet stream, so a browser never runs repository content.
import type Koa from 'koa';
import { HANDLED } from './core/route.js';
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

/** `send_git_blob`: the bytes, inline (the route then returns HANDLED). */
export function sendBlob(ctx: Koa.Context, data: Uint8Array, name: string | null): typeof HANDLED {
  ctx.status = 200;
  ctx.set('Content-Type', safeContentType(data, name));
  ctx.set('Content-Disposition', 'inline');
  ctx.body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return HANDLED;
}
