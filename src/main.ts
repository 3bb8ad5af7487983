// Process entry: config → store → app → listen; stops cleanly on SIGINT/SIGTERM. With
// WHARF_WORKERS above 1 this process is the primary of that many workers (src/workers.ts),
// each of which comes back here to serve; the primary imports nothing else.
import { loadConfig } from './config.js';
import { isPrimary, runPrimary, workerRole } from './workers.js';

const config = loadConfig();
if (isPrimary(config)) {
  runPrimary(config);
} else {
  const { startServer, processLogger } = await import('./server.js');
  const inCluster = config.workers > 1;
  const role = inCluster ? workerRole() : { role: 'first' as const, jobs: true };
  const log = processLogger(config);
  const running = await startServer(config, log, { setup: role.role === 'first', jobs: role.jobs });
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
