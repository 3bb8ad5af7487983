// Who a CI job runs as. GitLab Runner's shell executor runs jobs as the runner's own user, never
// as root. Wharf's built-in runner lives in the server's process, so a server running as root
// gives every job a uid of its own from WHARF_RUNNER_UIDS (the job's id modulo the range): no
// job is root or the server's user, and the kernel counts a job's processes (RLIMIT_NPROC) on
// its own. The uid has no account on the host; inside the sandbox /etc/passwd names it `ci`
// (ssh, git and whoami look it up). A server running as another user cannot switch users: its
// jobs run as itself, confined by the sandbox alone (the README says so).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Config } from '../../../config.js';

const run = promisify(execFile);

export interface JobUser {
  uid: number;
  gid: number;
}

/** The uid and gid job `buildId` runs as, or null when the server cannot switch users. */
export function jobUser(config: Pick<Config, 'runnerUids'>, buildId: number): JobUser | null {
  if (process.getuid?.() !== 0) return null;
  const uid = config.runnerUids.first + (buildId % config.runnerUids.count);
  return { uid, gid: uid };
}

/** The sandbox's /etc/passwd and /etc/group: the host's entries, and the job's user as `ci`. */
export function accountFiles(user: JobUser, home: string): { passwd: string; group: string } {
  const keep = (file: string, id: number) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line && line.split(':')[0] !== 'ci' && line.split(':')[2] !== String(id))
      .join('\n');
  return {
    passwd: `${keep('/etc/passwd', user.uid)}\nci:x:${user.uid}:${user.gid}:CI job:${home}:/bin/bash\n`,
    group: `${keep('/etc/group', user.gid)}\nci:x:${user.gid}:\n`,
  };
}

/** Gives a folder the server made for a job (its checkout, its home) to the job's user. */
export async function giveTo(dir: string, user: JobUser): Promise<void> {
  // chown -R changes links themselves and never follows them (-P is its default).
  await run('chown', ['-R', `${user.uid}:${user.gid}`, '--', dir], { timeout: 300_000 });
}

/**
 * Closes the server's own files to everyone else: the SQLite files (mode 0600) and the
 * repositories' root (0700: repositories, traces, artifacts and uploads are under it). Done at
 * the runner's start, a second wall behind the sandbox, which does not show them at all.
 */
export function keepFromJobs(config: Pick<Config, 'db' | 'reposDir'>, log: { info(o: object, m: string): void }): void {
  const closed: string[] = [];
  if (!/^postgres(ql)?:/.test(config.db)) {
    for (const file of [config.db, `${config.db}-wal`, `${config.db}-shm`]) {
      if (fs.existsSync(file) && (fs.statSync(file).mode & 0o077) !== 0) {
        fs.chmodSync(file, 0o600);
        closed.push(file);
      }
    }
  }
  if (fs.existsSync(config.reposDir) && (fs.statSync(config.reposDir).mode & 0o077) !== 0) {
    fs.chmodSync(config.reposDir, 0o700);
    closed.push(config.reposDir);
  }
  if (closed.length) log.info({ closed }, 'CI jobs run as other users: the database and repositories were closed to others');
}
