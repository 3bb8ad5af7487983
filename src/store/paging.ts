// A page of a list query and how to count and fetch it: what a finder may attach to the
// query it builds (a paging plan), read by src/http/pagination.ts, which takes the page from
// the request and writes GitLab's headers. In store/ because it is a property of a Knex
// query, so finders can shape their paging without importing the HTTP layer.
import type { Knex } from 'knex';

/** One page: 1-based number, size and the rows skipped before it. */
export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

/**
 * How a list query is counted and paged, when the default (COUNT(*) over the query as a
 * subquery, the page in parallel) is not the cheapest. `page` knows the total, so a finder can
 * pick the query shape that suits the number of matches.
 */
export interface PagingPlan {
  /** The page's rows (a query builder, or a promise of them). */
  page(query: Knex.QueryBuilder, page: Page, total: number): PromiseLike<unknown>;
}

const plans = new WeakMap<Knex.QueryBuilder, PagingPlan>();

/** Attaches a paging plan to a list query (read by `paginate`); returns the query. */
export function withPagingPlan(query: Knex.QueryBuilder, plan: PagingPlan): Knex.QueryBuilder {
  plans.set(query, plan);
  return query;
}

/** The paging plan attached to a query, if any. */
export function pagingPlanOf(query: Knex.QueryBuilder): PagingPlan | undefined {
  return plans.get(query);
}
