// Persisted per-commit line counts (the commit_stats table): what makes contributors cheap
// after a restart, in another process, or for a new head (only the new commits are counted).
// Rows are keyed by object ids and never change; reads and writes that fail only cost speed.
import type { Knex } from 'knex';

export interface LineCounts {
  additions: number;
  deletions: number;
}

export interface StatsKey {
  commit: string;
  /** The commit diffed against ('' = nothing). */
  base: string;
}

export interface StatsStore {
  load(keys: StatsKey[]): Promise<Map<string, LineCounts>>;
  save(rows: (StatsKey & LineCounts)[]): Promise<void>;
}

/** The counting rules of the stored rows; bump when counts would change. */
export const STATS_VERSION = 1;

export const statsKey = (k: StatsKey) => `${k.commit}\0${k.base}`;

// SQLite allows 999 bound parameters per statement.
const CHUNK = 300;

export function dbStatsStore(db: Knex): StatsStore {
  return {
    async load(keys) {
      const out = new Map<string, LineCounts>();
      const wanted = new Set(keys.map(statsKey));
      const commits = [...new Set(keys.map((k) => k.commit))];
      for (let i = 0; i < commits.length; i += CHUNK) {
        const rows: { commit_oid: string; base_oid: string; additions: number | string; deletions: number | string }[] = await db('commit_stats')
          .select('commit_oid', 'base_oid', 'additions', 'deletions')
          .where('version', STATS_VERSION)
          .whereIn('commit_oid', commits.slice(i, i + CHUNK));
        for (const r of rows) {
          const key = statsKey({ commit: r.commit_oid, base: r.base_oid });
          if (wanted.has(key)) out.set(key, { additions: Number(r.additions), deletions: Number(r.deletions) });
        }
      }
      return out;
    },
    async save(rows) {
      for (let i = 0; i < rows.length; i += CHUNK / 5) {
        await db('commit_stats')
          .insert(rows.slice(i, i + CHUNK / 5).map((r) => ({ commit_oid: r.commit, base_oid: r.base, version: STATS_VERSION, additions: r.additions, deletions: r.deletions })))
          .onConflict(['commit_oid', 'base_oid', 'version'])
          .ignore();
      }
    },
  };
}
