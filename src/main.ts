// Process entry: config → store → app → listen; stops cleanly on SIGINT/SIGTERM. With
// WHARF_WORKERS above 1 this process is the primary of that many workers (src/workers.ts),
// each of which comes back here to serve; the primary imports nothing else.
import v8 from 'node:v8';
import { loadConfig } from './config.js';
import { isPrimary, runPrimary, workerReady, workerRole } from './workers.js';

// Loading the modules allocates in bursts that would size V8's young generation at 16 MB for
// good; growing it only once the process serves keeps an idle server small (under
// 80 MB) and lets it grow under load as usual.
const YOUNG_GROWTH = '--semi-space-growth-factor';
// Likewise the compilers beyond the interpreter: start-up code (module bodies, migrations,
// the first queries) runs once, and compiling what merely looks hot there leaves ~6 MB of
// machine code and compiler memory behind in an idle process. They are switched on (V8's
// defaults) once the process serves.
const COMPILERS = ['turbofan', 'sparkplug'];

const config = loadConfig();
if (isPrimary(config)) {
  runPrimary(config);
} else {
  v8.setFlagsFromString(`${YOUNG_GROWTH}=1`);
  for (const compiler of COMPILERS) v8.setFlagsFromString(`--no-${compiler}`);
  const { startServer, processLogger } = await import('./server.js');
  const { NewerSchemaError } = await import('./store/migration_status.js');
  const inCluster = config.workers > 1;
  const role = inCluster ? workerRole() : { role: 'first' as const, jobs: true };
  const log = processLogger(config);
  const running = await startServer(config, log, { setup: role.role === 'first', jobs: role.jobs }).catch((err: unknown) => {
    // A database migrated by a newer Wharf: the reason and what to do, one line, exit 1.
    if (!(err instanceof NewerSchemaError)) throw err;
    log.fatal({ unknownMigrations: err.unknown }, err.message);
    log.flush();
    process.exit(1);
  });
  v8.setFlagsFromString(`${YOUNG_GROWTH}=2`); // V8's default
  for (const compiler of COMPILERS) v8.setFlagsFromString(`--${compiler}`);
  workerReady();
  if (role.role === 'first') {
    log.info(
      { host: config.host, port: config.port, externalUrl: config.externalUrl, db: config.db, repos: config.reposDir, workers: config.workers },
      `Wharf listening on http://${config.host}:${config.port}`,
    );
  }

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      if (!inCluster) running.deps.log.info({ signal }, 'shutting down');
      await running.close();
      process.exit(0);
    });
  }
}
