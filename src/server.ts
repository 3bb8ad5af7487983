// Starting and stopping a Wharf server: store, migrations, bootstrap, HTTP. Used by main.ts
// (one process, or each worker process of src/workers.ts) and by the tests, which boot the
// very same thing on a temporary folder.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { openDb, migrate } from './store/db.js';
import { Urls } from './http/urls.js';
import { RepoStore } from './git/repos.js';
import { bootstrap } from './services/bootstrap.js';
import { recoverAtStart } from './services/repository_guard.js';
import { buildApp } from './app.js';
import { startEventRetention } from './jobs/event_retention.js';
import { startMemberExpiry } from './jobs/member_expiry.js';

export interface RunningServer {
  deps: Deps;
  server: http.Server;
  url: string;
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

export async function prepare(config: Config, log: Logger = processLogger(config), options: StartOptions = {}): Promise<Deps> {
  const db = openDb(config.db, config.dbPoolSize);
  if (options.setup !== false) await migrate(db);
  const repos = new RepoStore(config.reposDir, (key, err) => log.error({ err, key }, 'a repository lock was taken over while held'));
  const deps: Deps = { config, db, urls: new Urls(config.externalUrl), repos, log };
  if (options.setup !== false) {
    await bootstrap(deps);
    await recoverAtStart(deps); // moves and deletes cut short by a crash, stale lock files
  }
  return deps;
}

export async function startServer(config: Config, log?: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const deps = await prepare(config, log, options);
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
  const jobs = options.jobs === false ? [] : [startEventRetention(deps), startMemberExpiry(deps)]; // daily, unref'd
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  return {
    deps,
    server,
    url,
    async close() {
      for (const job of jobs) job.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.db.destroy();
      deps.log.flush();
    },
  };
}
