// Starting and stopping a Wharf server: store, migrations, bootstrap, HTTP. Used by main.ts
// (one process, or each worker process of src/workers.ts) and by the tests, which boot the
// very same thing on a temporary folder.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { openDb, migrate, postgresLocaleMismatch, isPostgresUrl } from './store/db.js';
import { createFromTemplate } from './store/template_db.js';
import { Urls } from './http/urls.js';
import { RepoStore } from './git/repos.js';
import { bootstrap } from './services/users/bootstrap.js';
import { recoverAtStart } from './services/repository/guard.js';
import { sweepImportWork } from './services/import_export/import_work.js';
import { buildApp } from './app.js';
import { JobRunner } from './jobs/runner.js';
import './jobs/kinds.js';
import { registerDbPool, registerQueueMetrics } from './services/metrics/metrics.js';
import { checkBackupSchedule } from './services/backup/schedule.js';
import { jobStats, queueMetrics } from './finders/job_metrics.js';
import { startSshServer, type SshServer } from './transport/ssh_server.js';
import { ShellRunner } from './services/ci/runner/shell_runner.js';
import { probeSandbox } from './services/ci/runner/sandbox.js';

export interface RunningServer {
  deps: Deps;
  /** This process's job runner (deps.jobs); tests call `jobs.drain()`. */
  jobs: JobRunner;
  server: http.Server;
  url: string;
  /** git over SSH (null when WHARF_SSH_PORT is 0). */
  ssh: SshServer | null;
  /** The built-in CI runner (WHARF_RUNNER=shell, in the process that runs background jobs). */
  ciRunner: ShellRunner | null;
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * Migrate, create root, recover repositories cut short by a crash (default). Worker
   * processes started after the first one skip it: the first did it before they started.
   */
  setup?: boolean;
  /** Run the daily jobs in this process (default; one worker process does). */
  jobs?: boolean;
}

/**
 * The process's logger. Lines are buffered and written off the request path (pino's
 * asynchronous destination); `flush` before exiting.
 */
export function processLogger(config: Config): Logger {
  return pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: false }));
}

async function prepare(config: Config, log: Logger = processLogger(config), options: StartOptions = {}): Promise<Deps> {
  // A new SQLite database starts as a copy of the empty one `make build` made; migrate() then
  // runs whatever that copy lacks (nothing, unless built otherwise).
  if (options.setup !== false && !isPostgresUrl(config.db)) await createFromTemplate(config.db);
  const db = openDb(config.db, config.dbPoolSize);
  if (options.setup !== false) {
    // A refused database (a newer Wharf's schema) is closed unchanged: the start fails with why.
    await migrate(db).catch(async (err: unknown) => {
      await db.destroy();
      throw err;
    });
    const localeMismatch = await postgresLocaleMismatch(db);
    if (localeMismatch) log.warn(localeMismatch);
  }
  const repos = new RepoStore(config.reposDir, (key, err) => log.error({ err, key }, 'a repository lock was taken over while held'));
  const urls = new Urls(config.externalUrl, { host: config.sshHost, port: config.sshPort });
  urls.lfsEnabled = config.lfsEnabled;
  const deps = { config, db, urls, repos, log } as Deps;
  deps.jobs = new JobRunner(deps, {
    // Worker processes other than the jobs worker run none (src/workers.ts).
    concurrency: options.jobs === false ? 0 : config.jobConcurrency,
    deliveryConcurrency: options.jobs === false || config.jobConcurrency === 0 ? 0 : config.hookConcurrency,
    leaseMs: config.jobLeaseMs,
    pollMs: config.jobPollMs,
    shutdownMs: config.jobShutdownMs,
  });
  if (options.setup !== false) {
    await bootstrap(deps);
    await recoverAtStart(deps); // moves and deletes cut short by a crash, stale lock files
    await sweepImportWork(deps); // temp folders of imports a crash cut short
  }
  return deps;
}

export async function startServer(config: Config, log?: Logger, options: StartOptions = {}): Promise<RunningServer> {
  // The built-in runner refuses to start (and the server with it) when it could not confine jobs.
  if (config.runner === 'shell' && options.jobs !== false) probeSandbox(config);
  await checkBackupSchedule(config); // a schedule that cannot be read stops the start, saying why
  const deps = await prepare(config, log, options);
  const runner = deps.jobs as JobRunner;
  const app = buildApp(deps);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  // A large push may upload for longer than Node's default 5 minutes; the git transport has
  // its own idle timeout, and API bodies are capped by size.
  server.requestTimeout = 60 * 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  let ssh: SshServer | null = null;
  try {
    ssh = config.sshPort ? await startSshServer(deps, { port: config.sshPort, host: config.host }) : null;
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await deps.db.destroy();
    throw err;
  }
  await runner.start(); // background jobs, the daily ones included
  const ciRunner =
    config.runner === 'shell' && options.jobs !== false
      ? new ShellRunner(deps, { concurrency: config.runnerConcurrency, pollMs: Math.min(config.jobPollMs, 500), leaseMs: config.jobLeaseMs })
      : null;
  ciRunner?.start();
  const stopPoolMetrics = registerDbPool(deps.db);
  // The queue's backlog and latency per queue and its counters, read at each scrape.
  const stopQueueMetrics = registerQueueMetrics(
    async () => {
      const [queues, stats] = await Promise.all([queueMetrics(deps.db), jobStats(deps.db)]);
      return { queues, processed: stats.processed, failed: stats.failed };
    },
    (err) => deps.log.warn({ err }, 'the job queue could not be read for /-/metrics'),
  );
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  return {
    deps,
    server,
    url,
    jobs: runner,
    ssh,
    ciRunner,
    async close() {
      await ciRunner?.stop(); // running CI jobs: process groups killed, jobs failed
      stopPoolMetrics();
      stopQueueMetrics();
      await ssh?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runner.stop(); // running jobs finish (up to WHARF_JOB_SHUTDOWN_SECONDS) or go back to the queue
      await deps.db.destroy();
      deps.log.flush();
    },
  };
}
