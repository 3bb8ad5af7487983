// Caches that several worker processes can trust. A process may keep what it read (a token's
// user, a project's members, the application settings) only as long as the topic's epoch in
// `cache_epochs` has not moved: a writer bumps the epoch in the transaction of its change, and
// a reader compares epochs once per request (one small query for every topic) before using
// anything cached. So a revoked token or a removed member is seen by every process on the
// next request, whichever process made the change, on SQLite and PostgreSQL alike.
//
// The topics below `settings` are moved by triggers on their tables (migration 000026), so
// every writer bumps them without a call: tokens (personal_access_tokens), users (users),
// memberships (members, project_group_links, namespace_ancestors, namespaces), projects
// (projects, namespaces, users_star_projects, custom_attributes, project_statistics,
// protected_branches), issuables (issues, merge requests, issue assignees, labels and label
// links, milestones, award emoji).
import type { Conn, Db } from './db.js';
import { hotReader } from './hot.js';

/** The topics a cache can hang off. Add one when a new cache appears. */
export type CacheTopic = 'tokens' | 'users' | 'memberships' | 'projects' | 'issuables' | 'settings';

/** Moves the topic's epoch; call it inside the transaction that changes what the topic caches. */
export async function bumpEpoch(db: Conn, topic: CacheTopic): Promise<void> {
  await db('cache_epochs')
    .insert({ topic, epoch: 1 })
    .onConflict('topic')
    .merge({ epoch: db.raw('cache_epochs.epoch + 1') });
}

/**
 * Every topic's current epoch (a missing topic is epoch 0), as of a reading that started
 * after this call: what a write committed before the call is always seen.
 *
 * Outside a transaction the readings are shared: while one is running, every caller joins
 * the next one, which starts when the running one ends (a running reading may have started
 * before the caller's request came in, so joining it could miss a write the caller must see).
 * Under load that is one query per query time instead of one per request.
 */
export function readEpochs(db: Conn): Promise<Map<string, number>> {
  if ((db as { isTransaction?: boolean }).isTransaction) return queryEpochs(db('cache_epochs').select('topic', 'epoch'));
  return sharedReadingOf(db)();
}

async function queryEpochs(rows: PromiseLike<{ topic: string; epoch: number | string }[]>): Promise<Map<string, number>> {
  return new Map((await rows).map((r) => [r.topic, Number(r.epoch)]));
}

const sharedReadingOf = perStore((db: object) => {
  let running: Promise<Map<string, number>> | null = null;
  let next: Promise<Map<string, number>> | null = null;
  const start = (): Promise<Map<string, number>> => {
    const reading = queryEpochs(hotReader(db as Db).all('SELECT topic, epoch FROM cache_epochs'));
    running = reading;
    const done = () => {
      if (running === reading) running = null;
    };
    reading.then(done, done);
    return reading;
  };
  return (): Promise<Map<string, number>> => {
    if (next) return next; // not started yet: it starts after this call
    if (!running) return start();
    const after = running.then(
      () => undefined,
      () => undefined,
    );
    next = after.then(() => {
      next = null;
      return start();
    });
    return next;
  };
});

/**
 * The stamp of a value that depends on several topics: the sum of their epochs. Epochs only
 * grow, so the sum moves whenever one of them does.
 */
export function epochStamp(epochs: Map<string, number>, topics: CacheTopic | readonly CacheTopic[]): number {
  if (typeof topics === 'string') return epochs.get(topics) ?? 0;
  let sum = 0;
  for (const t of topics) sum += epochs.get(t) ?? 0;
  return sum;
}

/**
 * One cache per store: a process normally has one, the tests boot several servers side by
 * side, each on its own database, and one's rows must never answer another.
 */
export function perStore<T>(make: (db: object) => T): (db: object) => T {
  const byStore = new WeakMap<object, T>();
  return (db) => {
    let value = byStore.get(db);
    if (value === undefined) byStore.set(db, (value = make(db)));
    return value;
  };
}

/**
 * A value cached under the epoch it was read at. `get` answers the cached value only while the
 * topic's epoch is still the one it was read under; otherwise it loads again.
 */
export class EpochCache<K, V> {
  private readonly entries = new Map<K, { epoch: number; value: V }>();

  constructor(
    /** One topic, or several: the value is dropped when any of them moves. */
    readonly topic: CacheTopic | readonly CacheTopic[],
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, epochs: Map<string, number>, load: () => Promise<V>): Promise<V> {
    const epoch = epochStamp(epochs, this.topic);
    const hit = this.entries.get(key);
    if (hit && hit.epoch === epoch) return hit.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { epoch, value });
    return value;
  }

  /** The cached value if it is still current, without loading. */
  peek(key: K, epochs: Map<string, number>): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.epoch === epochStamp(epochs, this.topic) ? hit.value : undefined;
  }

  /** Keeps a value read under `epochs` (read before the value was). */
  set(key: K, epochs: Map<string, number>, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { epoch: epochStamp(epochs, this.topic), value });
  }

  clear(): void {
    this.entries.clear();
  }
}
