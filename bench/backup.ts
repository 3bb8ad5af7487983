// Backup benchmark: `npm run backup` of a data set of BENCH_BACKUP_MB (default 1024) MB, half
// repositories (one repository of large incompressible blobs, made by fast-import) and half job
// artifacts, against `tar czf` of the same folders (the database file and the repositories
// folder) in the same run, and the backup process's peak RSS (flat: everything is streamed).
// Run by hand, never in CI:
//   node dist/bench/backup.js [runs]
// Prints a markdown table (also written to bench/results/backup.md). Goal: within 1.5x of tar.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Api, intEnv, runMain, rssMb, serverEnv, withServer, writeResults } from './harness.js';
import { median, msSince, now } from './timing.js';

const runs = Number(process.argv[2] ?? 3);
const MB = intEnv('BENCH_BACKUP_MB', 1024);
const HERE = path.dirname(new URL(import.meta.url).pathname);

/** Runs a command, sampling its RSS every 100 ms; its time and peak RSS. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; peak: number }> {
  return new Promise((resolve, reject) => {
    const t = now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let peak = 0;
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const timer = setInterval(() => (peak = Math.max(peak, rssMb(child.pid) ?? 0)), 100);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolve({ ms: msSince(t), peak });
      else reject(new Error(`${cmd} exited ${code}: ${err}`));
    });
  });
}

/** A commit of `count` random blobs of `size` bytes each, by fast-import, into `gitdir`. */
function fillRepository(gitdir: string, count: number, size: number): void {
  const chunks: Buffer[] = [];
  for (let i = 0; i < count; i++) chunks.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${size}\n`), crypto.randomBytes(size), Buffer.from('\n'));
  let commit = `commit refs/heads/master\ncommitter Bench <b@example.com> 1500000000 +0000\ndata 5\nbulk\n`;
  for (let i = 0; i < count; i++) commit += `M 100644 :${i + 1} data/${i}.bin\n`;
  chunks.push(Buffer.from(`${commit}\n`));
  execFileSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input: Buffer.concat(chunks), maxBuffer: 1 << 30 });
}

async function main() {
  await withServer({}, async (server) => {
    const root = new Api(server.url);
    const { body: project } = await root.call<{ id: number; path_with_namespace: string }>('POST', '/projects', { name: 'big', visibility: 'private' });
    const gitdir = path.join(server.dir, 'repos', `${project.path_with_namespace}.git`);
    const blob = 4 * 1024 * 1024;
    console.error(`making ${MB} MB of data…`);
    fillRepository(gitdir, Math.max(1, Math.floor((MB / 2) * 1024 * 1024) / blob), blob);
    const artifacts = path.join(server.dir, 'repos', '@wharf', 'ci', 'artifacts', String(project.id));
    for (let i = 0; i < Math.max(1, Math.floor(MB / 2 / 8)); i++) {
      fs.mkdirSync(path.join(artifacts, String(i + 1)), { recursive: true });
      fs.writeFileSync(path.join(artifacts, String(i + 1), 'artifacts.zip'), crypto.randomBytes(8 * 1024 * 1024));
    }
    const env = { ...serverEnv(0, server.dir, server.dbFile), WHARF_BACKUP_DIR: path.join(server.dir, 'backups') };
    const backup = path.resolve(HERE, '../src/backup.js');
    const tarOut = path.join(server.dir, 'tar.tar.gz');
    const t = { wharf: [] as number[], tar: [] as number[] };
    let peak = 0;
    for (let i = 0; i < runs; i++) {
      fs.rmSync(env.WHARF_BACKUP_DIR, { recursive: true, force: true });
      const w = await timed(process.execPath, [backup], env);
      t.wharf.push(w.ms);
      peak = Math.max(peak, w.peak);
      fs.rmSync(tarOut, { force: true });
      t.tar.push((await timed('tar', ['czf', tarOut, '-C', server.dir, 'db', 'repos'], env)).ms);
    }
    const made = fs.readdirSync(env.WHARF_BACKUP_DIR)[0];
    const size = fs.statSync(path.join(env.WHARF_BACKUP_DIR, made)).size;
    const mbps = (ms: number) => (MB / (ms / 1000)).toFixed(0);
    const table = [
      `Backup of ${MB} MB (half a repository of incompressible blobs, half job artifacts), median of ${runs}; archive ${(size / 1024 / 1024).toFixed(0)} MB.`,
      '',
      '| | time | throughput | ÷ tar czf | peak RSS |',
      '|---|---|---|---|---|',
      `| npm run backup | ${(median(t.wharf) / 1000).toFixed(1)} s | ${mbps(median(t.wharf))} MB/s | ${(median(t.wharf) / median(t.tar)).toFixed(2)}x | ${peak} MB |`,
      `| tar czf db repos | ${(median(t.tar) / 1000).toFixed(1)} s | ${mbps(median(t.tar))} MB/s | 1.00x | |`,
      '',
    ].join('\n');
    console.log(table);
    writeResults('backup.md', table);
  });
}

runMain(main);
