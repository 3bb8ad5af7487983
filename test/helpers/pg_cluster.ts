// A throwaway PostgreSQL cluster for the tests and benchmarks: initdb in a temporary folder,
// its own port and socket folder, fsync off (nothing in it outlives the run), stopped and
// removed at the end. PostgreSQL refuses to run as root, so when we are root (CI is) the
// cluster belongs to an unprivileged system user: `postgres` when Debian's package made
// one, `nobody` otherwise. The C locale makes text order and lower() byte-wise, as SQLite's.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free_port.js';

export interface PgCluster {
  /** A superuser URL of the cluster's `postgres` database. */
  url: string;
  port: number;
  stop(): void;
}

/** The folder of initdb and pg_ctl: on the PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
export function pgBinDir(): string {
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (found) return path.dirname(fs.realpathSync(found));
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) if (fs.existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error("PostgreSQL is not installed (no initdb on the PATH nor under /usr/lib/postgresql): `make test` installs Debian's postgresql");
}

/** uid/gid of the user the cluster runs as: ourselves, unless we are root. */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim();
    return { uid: Number(r.stdout.trim()), gid: Number(gid) };
  }
  throw new Error('running as root and neither the postgres nor the nobody user exists to own the test cluster');
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  const owner = clusterOwner();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-pg-'));
  const data = path.join(dir, 'data');
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const run = (tool: string, args: string[]) =>
    execFileSync(path.join(bin, tool), args, { ...owner, cwd: dir, env: { ...process.env, HOME: dir, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const fail = (what: string, err: any): never => {
    const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${what} failed: ${err.stderr?.toString() || err.message}\n${log}`);
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  } catch (err) {
    fail('initdb', err);
  }
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=64MB',
  ].join(' ');
  try {
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  } catch (err) {
    fail('pg_ctl start', err);
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
