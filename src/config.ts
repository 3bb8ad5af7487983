// Every setting of the process, read once from the environment. Nothing else reads process.env.
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
  /** git over SSH: the port to serve (0: no SSH server), also the port ssh_url_to_repo shows. */
  sshPort: number;
  /** The host name ssh_url_to_repo shows (WHARF_EXTERNAL_URL's by default). */
  sshHost: string;
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
  const externalUrl = (env.WHARF_EXTERNAL_URL || `http://localhost:${port}`).replace(/(?<!\/)\/+$/, '');
  const sshPort = intFrom(env.WHARF_SSH_PORT, 2222, 'WHARF_SSH_PORT');
  if (sshPort > 65535) throw new Error(`WHARF_SSH_PORT must be a port number, got "${env.WHARF_SSH_PORT}"`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    db: db.startsWith('postgres://') || db.startsWith('postgresql://') ? db : path.resolve(db),
    reposDir: path.resolve(env.WHARF_REPOS || 'repos'),
    externalUrl,
    rootToken: env.WHARF_ROOT_TOKEN || undefined,
    logLevel: env.WHARF_LOG_LEVEL || 'info',
    maxBodyBytes: intFrom(env.WHARF_MAX_BODY_BYTES, 10 * 1024 * 1024, 'WHARF_MAX_BODY_BYTES'),
    dbPoolSize: Math.max(1, intFrom(env.WHARF_DB_POOL, 4, 'WHARF_DB_POOL')),
    sshPort,
    sshHost: env.WHARF_SSH_HOST || new URL(externalUrl).hostname,
  };
}
