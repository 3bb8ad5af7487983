// Caches that several worker processes can trust. A process may keep what it read (a token's
// user, a project's members, the application settings) only as long as the topic's epoch in
// `cache_epochs` has not moved: a writer bumps the epoch in the transaction of its change, and
// a reader compares epochs once per request (one small query for every topic) before using
// anything cached. So a revoked token or a removed member is seen by every process on the
// next request, whichever process made the change, on SQLite and PostgreSQL alike.
import type { Conn } from './db.js';

/** The topics a cache can hang off. Add one when a new cache appears. */
export type CacheTopic = 'tokens' | 'users' | 'memberships' | 'projects' | 'settings';

/** Moves the topic's epoch; call it inside the transaction that changes what the topic caches. */
export async function bumpEpoch(db: Conn, topic: CacheTopic): Promise<void> {
  await db('cache_epochs').insert({ topic, epoch: 1 }).onConflict('topic').merge({ epoch: db.raw('cache_epochs.epoch + 1') });
}

/** Every topic's current epoch (a missing topic is epoch 0). */
export async function readEpochs(db: Conn): Promise<Map<string, number>> {
  const rows: { topic: string; epoch: number | string }[] = await db('cache_epochs').select('topic', 'epoch');
  return new Map(rows.map((r) => [r.topic, Number(r.epoch)]));
}

/**
 * A value cached under the epoch it was read at. `get` answers the cached value only while the
 * topic's epoch is still the one it was read under; otherwise it loads again.
 */
export class EpochCache<K, V> {
  private readonly entries = new Map<K, { epoch: number; value: V }>();

  constructor(
    readonly topic: CacheTopic,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, epochs: Map<string, number>, load: () => Promise<V>): Promise<V> {
    const epoch = epochs.get(this.topic) ?? 0;
    const hit = this.entries.get(key);
    if (hit && hit.epoch === epoch) return hit.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { epoch, value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
