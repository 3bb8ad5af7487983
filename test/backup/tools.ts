// The backup tools as a user runs them (`npm run backup`, `npm run restore`: the built scripts,
// each in a process of its own), pointed at a server's data folder.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function runTool(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(DIST, 'src', script), ...args], { env: { PATH: process.env.PATH, ...env }, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The environment that points a tool at a server's data (database, repositories, secrets). */
export function dataEnv(dir: string, db: string): Record<string, string> {
  return {
    WHARF_DB: db,
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_SERVER_SECRET: path.join(dir, 'db', 'server_secret'),
    WHARF_SSH_HOST_KEY: path.join(dir, 'db', 'ssh_host_ed25519_key'),
    WHARF_BACKUP_DIR: path.join(dir, 'backups'),
    WHARF_LOG_LEVEL: 'silent',
  };
}
