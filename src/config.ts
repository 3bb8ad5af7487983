// Every setting of the process, read once from the environment. Nothing else reads process.env.
import os from 'node:os';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** SQLite file path, or a postgres:// URL. */
  db: string;
  reposDir: string;
  externalUrl: string;
  rootToken: string | undefined;
  logLevel: string;
  /** Largest accepted JSON/form body, in bytes. */
  maxBodyBytes: number;
  /** SQLite connections (readers run in parallel; writers take turns). */
  dbPoolSize: number;
  /** Processes serving the port (src/workers.ts); 1 serves from this process alone. */
  workers: number;
  /** Bytes of rendered list pages each process keeps (api/page_cache.ts); 0 keeps none. */
  listCacheBytes: number;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 8080, 'PORT');
  const db = env.WHARF_DB || 'db/wharf.sqlite3';
  return {
    port,
    host: env.HOST || '0.0.0.0',
    db: db.startsWith('postgres://') || db.startsWith('postgresql://') ? db : path.resolve(db),
    reposDir: path.resolve(env.WHARF_REPOS || 'repos'),
    externalUrl: (env.WHARF_EXTERNAL_URL || `http://localhost:${port}`).replace(/(?<!\/)\/+$/, ''),
    rootToken: env.WHARF_ROOT_TOKEN || undefined,
    logLevel: env.WHARF_LOG_LEVEL || 'info',
    maxBodyBytes: intFrom(env.WHARF_MAX_BODY_BYTES, 10 * 1024 * 1024, 'WHARF_MAX_BODY_BYTES'),
    dbPoolSize: Math.max(1, intFrom(env.WHARF_DB_POOL, 4, 'WHARF_DB_POOL')),
    workers: Math.max(1, intFrom(env.WHARF_WORKERS, os.availableParallelism(), 'WHARF_WORKERS')),
    listCacheBytes: intFrom(env.WHARF_LIST_CACHE_MB, 32, 'WHARF_LIST_CACHE_MB') * 1024 * 1024,
  };
}
