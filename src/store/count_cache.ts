// List totals (X-Total) kept per process while the tables they count stay unchanged: counting
// 100,000 issues takes SQLite about 10 ms, more than everything else a page costs.
// A finder marks its list query with the cache topics whose tables the query reads
// (src/store/cache_epochs.ts: triggers move them on every write); pagination then takes the
// total from here while those epochs have not moved, keyed by the count's SQL and bindings,
// which hold the user, the filters and the scope.
import type { Knex } from 'knex';
import { EpochCache, perStore, type CacheTopic } from './cache_epochs.js';

/** What the issue and merge request lists read: their rows and filters, visibility, the user. */
export const ISSUABLE_LIST_TOPICS: readonly CacheTopic[] = ['issuables', 'projects', 'memberships', 'users'];
/** What the project lists read: projects, namespaces, stars, custom attributes, visibility. */
export const PROJECT_LIST_TOPICS: readonly CacheTopic[] = ['projects', 'memberships', 'users'];

const topicsOf = new WeakMap<Knex.QueryBuilder, readonly CacheTopic[]>();
const cachesOf = perStore(() => new Map<string, EpochCache<string, number>>());

/** Marks a list query whose total may be cached under `topics`; returns the query. */
export function countedUnder<Q extends Knex.QueryBuilder>(query: Q, topics: readonly CacheTopic[]): Q {
  topicsOf.set(query, topics);
  return query;
}

/** The cache (of store `db`) for a marked query's total, or undefined when the query is not marked. */
export function countCacheOf(db: object, query: Knex.QueryBuilder): EpochCache<string, number> | undefined {
  const topics = topicsOf.get(query);
  if (!topics) return undefined;
  const caches = cachesOf(db);
  const name = [...topics].sort().join(',');
  let cache = caches.get(name);
  if (!cache) caches.set(name, (cache = new EpochCache<string, number>(topics, 20_000)));
  return cache;
}
