// Offset pagination with GitLab's headers: X-Total, X-Total-Pages, X-Per-Page, X-Page,
// X-Next-Page, X-Prev-Page and Link (prev, next, first, last). python-gitlab follows
// X-Next-Page and calls the Link URL as-is; gitbeaker follows rel="next".
import type Koa from 'koa';
import type { Knex } from 'knex';
import qs from 'qs';
import { coerceInteger } from './params.js';
import { paramError } from './errors.js';
import { pagingPlanOf, type Page } from '../store/paging.js';
import { countCacheOf } from '../store/count_cache.js';
import { hotRows } from '../store/hot.js';
import { readEpochs } from '../store/cache_epochs.js';

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

function intParam(ctx: Koa.Context, name: string): number | undefined {
  const raw = (ctx.state.query as Record<string, unknown>)[name];
  if (raw === undefined || raw === '') return undefined;
  // A page number beyond the integer columns' range is a page past the end, not an error.
  if (typeof raw === 'string' && /^\s*\d{1,15}\s*$/.test(raw)) return Number(raw);
  try {
    return coerceInteger(raw);
  } catch {
    throw paramError(`${name} is invalid`);
  }
}

/** The requested page: per_page over 100 is capped, zero or negative values fall back. */
export function pageOf(ctx: Koa.Context): Page {
  const requestedPage = intParam(ctx, 'page');
  const requestedPer = intParam(ctx, 'per_page');
  const page = requestedPage !== undefined && requestedPage > 0 ? requestedPage : 1;
  const perPage = requestedPer !== undefined && requestedPer > 0 ? Math.min(requestedPer, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

export function setPageHeaders(ctx: Koa.Context, page: Page, total: number): void {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const next = page.page < totalPages ? page.page + 1 : null;
  const prev = page.page > 1 && page.page <= totalPages ? page.page - 1 : null;
  ctx.set({
    'X-Total': String(total),
    'X-Total-Pages': String(totalPages),
    'X-Per-Page': String(page.perPage),
    'X-Page': String(page.page),
    'X-Next-Page': next === null ? '' : String(next),
    'X-Prev-Page': prev === null ? '' : String(prev),
  });
  const base = `${ctx.protocol}://${ctx.host}${ctx.path}`;
  const query = { ...(ctx.state.query as Record<string, unknown>) };
  const link = (n: number, rel: string) => {
    const params = qs.stringify({ ...query, page: n, per_page: page.perPage }, { sort: (a, b) => a.localeCompare(b), arrayFormat: 'brackets' });
    return `<${base}?${params}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (prev !== null) links.push(link(prev, 'prev'));
  if (next !== null) links.push(link(next, 'next'));
  links.push(link(1, 'first'), link(totalPages, 'last'));
  ctx.set('Link', links.join(', '));
}

/**
 * The total of a list query, counted as a subquery; a query a finder marked (store/count_cache.ts)
 * takes it from the cache while the tables it counts have not changed.
 */
async function countOf(ctx: Koa.Context, db: Knex, query: Knex.QueryBuilder): Promise<number> {
  const count = db.count({ n: '*' }).from(query.clone().clearOrder().as('paged'));
  const cache = countCacheOf(db, query);
  const run = async () => {
    const rows = await hotRows<{ n: number | string }>(db, count);
    return Number(rows[0]?.n ?? 0);
  };
  if (!cache) return run();
  const { sql, bindings } = count.toSQL();
  const key = `${sql}\u0000${JSON.stringify(bindings)}`;
  const state = ctx.state as { epochs?: Promise<Map<string, number>> };
  const epochs = await (state.epochs ??= readEpochs(db)); // as http/request_settings.ts's requestEpochs
  const hit = cache.peek(key, epochs);
  if (hit !== undefined) return hit;
  const total = await run();
  cache.set(key, epochs, total);
  return total;
}

function isBuilder(x: unknown): x is Knex.QueryBuilder {
  return typeof (x as { toSQL?: unknown } | null)?.toSQL === 'function';
}

/**
 * Counts and pages a list query. The count wraps the query as a subquery so that joins,
 * DISTINCT and GROUP BY count the same rows the page shows. With a paging plan the count
 * comes first and a page past the end is not queried at all.
 */
export async function paginate<T>(ctx: Koa.Context, db: Knex, query: Knex.QueryBuilder): Promise<T[]> {
  const page = pageOf(ctx);
  const plan = pagingPlanOf(query);
  if (plan) {
    const total = await countOf(ctx, db, query);
    // A plan's page is a query builder (run here, on the hot reader) or a promise of rows.
    const planned = total > page.offset ? plan.page(query, page, total) : [];
    const rows = isBuilder(planned) ? await hotRows(db, planned) : await planned;
    setPageHeaders(ctx, page, total);
    return rows as T[];
  }
  const [total, rows] = await Promise.all([countOf(ctx, db, query), hotRows<T>(db, query.clone().limit(page.perPage).offset(page.offset))]);
  setPageHeaders(ctx, page, total);
  return rows as T[];
}

/** Pages a list that is already in memory (tree entries, contributors, ...). */
export function paginateArray<T>(ctx: Koa.Context, items: readonly T[]): T[] {
  const page = pageOf(ctx);
  setPageHeaders(ctx, page, items.length);
  return items.slice(page.offset, page.offset + page.perPage);
}

/**
 * Pages a list without counting it (Kaminari's `without_count`, what 10.8's global and group
 * searches answer): one row past the page tells whether a next page exists; X-Total,
 * X-Total-Pages and the `last` link are left out.
 */
export async function paginateWithoutCount<T>(ctx: Koa.Context, db: Knex, query: Knex.QueryBuilder): Promise<T[]> {
  const page = pageOf(ctx);
  const rows = await hotRows<T>(
    db,
    query
      .clone()
      .limit(page.perPage + 1)
      .offset(page.offset),
  );
  const next = rows.length > page.perPage ? page.page + 1 : null;
  const prev = page.page > 1 ? page.page - 1 : null;
  ctx.set({ 'X-Per-Page': String(page.perPage), 'X-Page': String(page.page), 'X-Next-Page': next === null ? '' : String(next), 'X-Prev-Page': prev === null ? '' : String(prev) });
  const base = `${ctx.protocol}://${ctx.host}${ctx.path}`;
  const query0 = { ...(ctx.state.query as Record<string, unknown>) };
  const link = (n: number, rel: string) =>
    `<${base}?${qs.stringify({ ...query0, page: n, per_page: page.perPage }, { sort: (a, b) => a.localeCompare(b), arrayFormat: 'brackets' })}>; rel="${rel}"`;
  const links: string[] = [];
  if (prev !== null) links.push(link(prev, 'prev'));
  if (next !== null) links.push(link(next, 'next'));
  links.push(link(1, 'first'));
  ctx.set('Link', links.join(', '));
  return rows.slice(0, page.perPage);
}
