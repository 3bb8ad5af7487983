// Process entry: config → store → app → listen; stops cleanly on SIGINT/SIGTERM.
import { loadConfig } from './config.js';
import { startServer } from './server.js';

const config = loadConfig();
const running = await startServer(config);
running.deps.log.info(
  { host: config.host, port: config.port, externalUrl: config.externalUrl, db: config.db, repos: config.reposDir },
  `Wharf listening on http://${config.host}:${config.port}`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    running.deps.log.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  });
}
