// Mocha's global fixture (loaded by .mocharc.json): with WHARF_TEST_DB=postgres, starts a
// throwaway PostgreSQL cluster for the run (unless WHARF_TEST_PG_URL names a server to use)
// and migrates the template database every test server's database is cloned from. Nothing
// to do for SQLite, whose test databases are files in each server's temp folder.
import { startPgCluster, type PgCluster } from './pg_cluster.js';
import { createTemplate, dropTemplate, testEngine } from './test_db.js';

let cluster: PgCluster | undefined;

function stopCluster(): void {
  cluster?.stop();
  cluster = undefined;
}

export async function mochaGlobalSetup(): Promise<void> {
  if (testEngine() !== 'postgres') return;
  if (!process.env.WHARF_TEST_PG_URL) {
    cluster = await startPgCluster();
    process.env.WHARF_TEST_PG_URL = cluster.url;
    // Never leave a cluster running behind an interrupted run.
    process.once('exit', stopCluster);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        stopCluster();
        process.exit(130);
      });
    }
  }
  await createTemplate();
  console.log(`  (PostgreSQL ${cluster ? `throwaway cluster on port ${cluster.port}` : 'at WHARF_TEST_PG_URL'})`);
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (testEngine() !== 'postgres') return;
  await dropTemplate().catch(() => undefined);
  stopCluster();
}
