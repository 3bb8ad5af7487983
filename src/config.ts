// Every setting of the process, read once from the environment. Nothing else reads process.env.
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder the server is installed in (this file is dist/src/config.js there). */
const INSTALL_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Config {
  port: number;
  host: string;
  /** SQLite file path, or a postgres:// URL. */
  db: string;
  reposDir: string;
  externalUrl: string;
  rootToken: string | undefined;
  logLevel: string;
  /** Largest accepted request body, in bytes, once decoded: JSON, form, or multipart fields and files together. */
  maxBodyBytes: number;
  /** Database connections of the process (readers run in parallel; writers take turns). */
  dbPoolSize: number;
  /** Processes serving the port (src/workers.ts); 1 serves from this process alone. */
  workers: number;
  /** Bytes of rendered list pages each process keeps (api/core/page_cache.ts); 0 keeps none. */
  listCacheBytes: number;
  /** Git LFS on this server (GitLab's `lfs: enabled` in gitlab.yml): WHARF_LFS_ENABLED, on unless "false". */
  lfsEnabled: boolean;
  /** The largest LFS object accepted, in bytes (WHARF_LFS_MAX_OBJECT_MB; 0, the default: no limit). */
  lfsMaxObjectBytes: number;
  /** Where backups go (WHARF_BACKUP_DIR, default `backups/`). */
  backupDir: string;
  /** When scheduled backups run (WHARF_BACKUP_CRON, cron syntax in UTC; unset: none). */
  backupCron?: string;
  /** How many scheduled backups are kept, the newest (WHARF_BACKUP_KEEP, default 7; 0: all). */
  backupKeep: number;
  /** GitLab 10.8's response schemas (kept in the repository), described in /api/v4/openapi.json. */
  schemasDir: string;
  /** Background jobs run at once by this process (0: it runs none; another process does). */
  jobConcurrency: number;
  /** Webhook deliveries run at once by this process besides them (their own slots). */
  hookConcurrency: number;
  /** How long a job stays claimed by a process that stopped renewing it (a crash), in ms. */
  jobLeaseMs: number;
  /** How often jobs queued by other processes are looked for, in ms. */
  jobPollMs: number;
  /** How long a stop waits for running jobs before handing them back, in ms. */
  jobShutdownMs: number;
  /** Addresses (CIDR or single) allowed to read `/-/metrics`; everyone else gets 404. */
  monitoringWhitelist: string[];
  /** git over SSH: the port to serve (0: no SSH server), also the port ssh_url_to_repo shows. */
  sshPort: number;
  /** The host name ssh_url_to_repo shows (WHARF_EXTERNAL_URL's by default). */
  sshHost: string;
  /** The SSH server's host key file (made on first start; its public half beside it as `.pub`). */
  sshHostKey: string;
  /** GitLab Pages' host (`pages.host`, lower case): custom Pages domains are on when it is set. */
  pagesHost: string | undefined;
  /** The server secret the at-rest encryption keys are derived from (services/security/secret_box.ts). */
  serverSecret: string;
  /** The built-in CI runner: 'shell' runs pending jobs in this server; 'off' leaves them pending. */
  runner: 'off' | 'shell';
  /** CI jobs the built-in runner runs at once. */
  runnerConcurrency: number;
  /**
   * What confines each CI job of the built-in runner (services/ci/runner/sandbox.ts): 'bwrap'
   * (namespaces), or 'none', which runs jobs unconfined and must be chosen explicitly.
   */
  runnerSandbox: 'bwrap' | 'none';
  /** The bubblewrap program (a name looked up on PATH, or a path). */
  runnerBwrap: string;
  /** The uids CI jobs run as when the server runs as root: job N runs as first + N mod count. */
  runnerUids: { first: number; count: number };
  /** What one CI job may use: memory (its cgroup), processes, disk (its files), its /tmp. */
  runnerLimits: RunnerLimits;
}

export interface RunnerLimits {
  memoryBytes: number;
  processes: number;
  diskBytes: number;
  tmpBytes: number;
}

/** A comma-separated list of IPv4/IPv6 addresses and CIDR ranges; throws on a bad entry. */
function cidrListFrom(value: string | undefined, fallback: string, name: string): string[] {
  const entries = (value === undefined || value.trim() === '' ? fallback : value)
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
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

function sandboxFrom(value: string | undefined): 'bwrap' | 'none' {
  if (value === undefined || value === '' || value === 'bwrap') return 'bwrap';
  if (value === 'none') return 'none';
  throw new Error(`WHARF_RUNNER_SANDBOX must be "bwrap" or "none", got "${value}"`);
}

/** `first-last` (inclusive) of uids that no account on the machine uses. */
function uidRangeFrom(value: string | undefined): { first: number; count: number } {
  const text = value === undefined || value === '' ? '600000-665535' : value;
  const m = /^(\d{1,10})-(\d{1,10})$/.exec(text);
  const first = m ? Number(m[1]) : NaN;
  const last = m ? Number(m[2]) : NaN;
  if (!m || first < 1000 || last < first || last > 4_294_967_294) throw new Error(`WHARF_RUNNER_UIDS must be a range first-last of uids from 1000 up, got "${text}"`);
  return { first, count: last - first + 1 };
}

function booleanFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be "true" or "false", got "${value}"`);
}

function runnerFrom(value: string | undefined): 'off' | 'shell' {
  if (value === undefined || value === '' || value === 'off') return 'off';
  if (value === 'shell') return 'shell';
  throw new Error(`WHARF_RUNNER must be "shell" or "off", got "${value}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 8080, 'PORT');
  const db = env.WHARF_DB || 'db/wharf.sqlite3';
  const postgres = db.startsWith('postgres://') || db.startsWith('postgresql://');
  const externalUrl = (env.WHARF_EXTERNAL_URL || `http://localhost:${port}`).replace(/(?<!\/)\/+$/, '');
  const sshPort = intFrom(env.WHARF_SSH_PORT, 2222, 'WHARF_SSH_PORT');
  if (sshPort > 65535) throw new Error(`WHARF_SSH_PORT must be a port number, got "${env.WHARF_SSH_PORT}"`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    db: postgres ? db : path.resolve(db),
    reposDir: path.resolve(env.WHARF_REPOS || 'repos'),
    externalUrl,
    rootToken: env.WHARF_ROOT_TOKEN || undefined,
    logLevel: env.WHARF_LOG_LEVEL || 'info',
    maxBodyBytes: intFrom(env.WHARF_MAX_BODY_BYTES, 10 * 1024 * 1024, 'WHARF_MAX_BODY_BYTES'),
    // SQLite has one file and one writer: a few connections are enough for its readers.
    dbPoolSize: Math.max(1, intFrom(env.WHARF_DB_POOL, postgres ? 10 : 4, 'WHARF_DB_POOL')),
    schemasDir: path.resolve(env.WHARF_SCHEMAS || path.join(INSTALL_ROOT, 'src/api/core/openapi/gitlab-10.8-schemas')),
    jobConcurrency: intFrom(env.WHARF_JOB_CONCURRENCY, 5, 'WHARF_JOB_CONCURRENCY'),
    hookConcurrency: Math.max(1, intFrom(env.WHARF_HOOK_CONCURRENCY, 100, 'WHARF_HOOK_CONCURRENCY')),
    jobLeaseMs: Math.max(1, intFrom(env.WHARF_JOB_LEASE_SECONDS, 60, 'WHARF_JOB_LEASE_SECONDS')) * 1000,
    jobPollMs: Math.max(10, intFrom(env.WHARF_JOB_POLL_MS, 1000, 'WHARF_JOB_POLL_MS')),
    jobShutdownMs: intFrom(env.WHARF_JOB_SHUTDOWN_SECONDS, 25, 'WHARF_JOB_SHUTDOWN_SECONDS') * 1000,
    monitoringWhitelist: cidrListFrom(env.WHARF_MONITORING_WHITELIST, '127.0.0.0/8,::1', 'WHARF_MONITORING_WHITELIST'),
    sshPort,
    sshHost: env.WHARF_SSH_HOST || new URL(externalUrl).hostname,
    // Beside the SQLite file by default, or in ./db with PostgreSQL.
    sshHostKey: path.resolve(env.WHARF_SSH_HOST_KEY || path.join(postgres ? 'db' : path.dirname(db), 'ssh_host_ed25519_key')),
    pagesHost: env.WHARF_PAGES_HOST?.trim().toLowerCase() || undefined,
    serverSecret: path.resolve(env.WHARF_SERVER_SECRET || path.join(postgres ? 'db' : path.dirname(db), 'server_secret')),
    workers: Math.max(1, intFrom(env.WHARF_WORKERS, os.availableParallelism(), 'WHARF_WORKERS')),
    runner: runnerFrom(env.WHARF_RUNNER),
    runnerConcurrency: Math.max(1, intFrom(env.WHARF_RUNNER_CONCURRENCY, 1, 'WHARF_RUNNER_CONCURRENCY')),
    runnerSandbox: sandboxFrom(env.WHARF_RUNNER_SANDBOX),
    runnerBwrap: env.WHARF_RUNNER_BWRAP || 'bwrap',
    runnerUids: uidRangeFrom(env.WHARF_RUNNER_UIDS),
    runnerLimits: {
      memoryBytes: Math.max(64, intFrom(env.WHARF_RUNNER_MEMORY_MB, 2048, 'WHARF_RUNNER_MEMORY_MB')) * 1024 * 1024,
      processes: Math.max(16, intFrom(env.WHARF_RUNNER_MAX_PROCESSES, 1024, 'WHARF_RUNNER_MAX_PROCESSES')),
      diskBytes: Math.max(16, intFrom(env.WHARF_RUNNER_DISK_MB, 10240, 'WHARF_RUNNER_DISK_MB')) * 1024 * 1024,
      tmpBytes: Math.max(1, intFrom(env.WHARF_RUNNER_TMP_MB, 1024, 'WHARF_RUNNER_TMP_MB')) * 1024 * 1024,
    },
    listCacheBytes: intFrom(env.WHARF_LIST_CACHE_MB, 32, 'WHARF_LIST_CACHE_MB') * 1024 * 1024,
    lfsEnabled: booleanFrom(env.WHARF_LFS_ENABLED, true, 'WHARF_LFS_ENABLED'),
    lfsMaxObjectBytes: intFrom(env.WHARF_LFS_MAX_OBJECT_MB, 0, 'WHARF_LFS_MAX_OBJECT_MB') * 1024 * 1024,
    backupDir: path.resolve(env.WHARF_BACKUP_DIR || 'backups'),
    backupCron: env.WHARF_BACKUP_CRON?.trim() || undefined, // checked at start (services/backup/schedule.ts)
    backupKeep: intFrom(env.WHARF_BACKUP_KEEP, 7, 'WHARF_BACKUP_KEEP'),
  };
}
