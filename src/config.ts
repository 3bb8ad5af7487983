// Every setting of the process, read once from the environment. Nothing else reads process.env.
import net from 'node:net';
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
  /** Addresses (CIDR or single) allowed to read `/-/metrics`; everyone else gets 404. */
  monitoringWhitelist: string[];
}

/** A comma-separated list of IPv4/IPv6 addresses and CIDR ranges; throws on a bad entry. */
function cidrListFrom(value: string | undefined, fallback: string, name: string): string[] {
  const entries = (value === undefined || value.trim() === '' ? fallback : value).split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = net.isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= max);
    if (!family || !prefixOk || rest.length) throw new Error(`${name} must be a comma-separated list of IP addresses or CIDR ranges, got "${entry}"`);
  }
  return entries;
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
    monitoringWhitelist: cidrListFrom(env.WHARF_MONITORING_WHITELIST, '127.0.0.0/8,::1', 'WHARF_MONITORING_WHITELIST'),
  };
}
