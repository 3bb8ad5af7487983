// What every router and service is built with: one object, made once in main.ts (or a test).
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db } from './store/db.js';
import type { Urls } from './http/urls.js';
import type { RepoStore } from './git/repos.js';
import type { JobPerformer } from './store/job_queue.js';

export interface Deps {
  config: Config;
  db: Db;
  urls: Urls;
  repos: RepoStore;
  log: Logger;
  /** This process's job runner: `perform` runs a durable job now (src/store/job_queue.ts). */
  jobs: JobPerformer;
}
