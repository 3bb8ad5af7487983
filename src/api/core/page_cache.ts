// Rendered pages of the busiest lists (issues, merge requests, projects), kept per process as
// the bytes that were sent, while the cache epochs of every table the page shows stay put
// (store/cache_epochs.ts: triggers move them in the writing transaction, whichever process
// writes). GitLab keeps polled lists cheap with ETag caching; this is the server-side half of
// that: a repeated request for the same page by the same user costs the auth, the project
// lookup and a copy of bytes instead of five queries and a 140 KB serialisation.
//
// The key is the user (and the admin behind a sudo), the origin (the Link header names it) and
// the whole URL; pages that depend on the calendar (`#upcoming`, `#started` milestones) are
// never kept. WHARF_LIST_CACHE_MB bounds the bytes per process (0 turns it off).
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import type { UserRow } from '../../store/rows.js';
import { epochStamp, type CacheTopic } from '../../store/cache_epochs.js';
import type { AuthState } from '../../http/auth.js';
import { requestEpochs } from '../../http/request_settings.js';
import { HANDLED } from './route.js';

/** The headers a list sets (pagination.ts); the rest are set per request around the handler. */
const PAGE_HEADERS = ['X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Link'];

interface Page {
  stamp: number;
  headers: Record<string, string>;
  /** The JSON as bytes, which Node sends faster than a string (http/errors.ts, jsonMiddleware). */
  body: Buffer;
}

class PageCache {
  private readonly pages = new Map<string, Page>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, stamp: number): Page | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.pages.delete(key);
    if (page.stamp !== stamp) {
      this.bytes -= page.body.length;
      return undefined;
    }
    this.pages.set(key, page); // most recently used last
    return page;
  }

  set(key: string, page: Page): void {
    const size = page.body.length;
    if (size > this.maxBytes / 4) return;
    const old = this.pages.get(key);
    if (old) {
      this.pages.delete(key);
      this.bytes -= old.body.length;
    }
    this.pages.set(key, page);
    this.bytes += size;
    for (const [k, p] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(k);
      this.bytes -= p.body.length;
    }
  }
}

const caches = new WeakMap<Deps, PageCache>();

function cacheOf(deps: Deps): PageCache | null {
  if (deps.config.listCacheBytes <= 0) return null;
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = new PageCache(deps.config.listCacheBytes)));
  return cache;
}

/** Calendar-dependent filters: their answer changes without a write. */
const CALENDAR = /%23(?:upcoming|started)|#(?:upcoming|started)/i;

/**
 * Answers a list page from the cache while `topics` have not moved, else renders it with
 * `render` (which sets the pagination headers through paginate), answers and keeps it.
 */
export async function cachedPage(ctx: Koa.Context, deps: Deps, user: UserRow | null, topics: readonly CacheTopic[], render: () => Promise<unknown>): Promise<typeof HANDLED> {
  const cache = cacheOf(deps);
  const keep = cache !== null && !CALENDAR.test(ctx.querystring);
  const sudoer = (ctx.state.auth as AuthState | undefined)?.sudoer;
  const key = `${user ? user.id : 0}:${sudoer ? sudoer.id : 0}:${ctx.origin}${ctx.url}`;
  // The settings too: a page shows avatars as `gravatar_enabled` says.
  const stamp = keep ? epochStamp(await requestEpochs(ctx, deps), [...topics, 'settings']) : 0;
  const hit = keep ? cache.get(key, stamp) : undefined;
  if (hit) {
    ctx.set(hit.headers);
    send(ctx, hit.body);
    return HANDLED;
  }
  const body = Buffer.from(JSON.stringify(await render()));
  if (keep) {
    const headers: Record<string, string> = {};
    for (const name of PAGE_HEADERS) {
      if (ctx.res.hasHeader(name)) headers[name] = String(ctx.response.get(name));
    }
    cache.set(key, { stamp, headers, body });
  }
  send(ctx, body);
  return HANDLED;
}

function send(ctx: Koa.Context, body: Buffer): void {
  ctx.status = 200;
  ctx.body = body;
  ctx.set('Content-Type', 'application/json');
}
