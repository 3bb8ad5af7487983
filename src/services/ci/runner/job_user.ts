// Who a CI job runs as. GitLab Runner's shell executor runs jobs as the runner's own user
// (`gitlab-runner`), never as root; Wharf's built-in runner lives in the server's process, so:
// - a server running as root runs each job as WHARF_RUNNER_USER (default `nobody`): the job
//   cannot write the repositories or the database, cannot read them either (keepFromJobs), and
//   its `ulimit -u` binds (the kernel does not apply RLIMIT_NPROC to root, so a fork bomb of a
//   root job would only end with the job's timeout);
// - a server running as any other user cannot switch users: jobs run as the server's user,
//   as the README says. WHARF_RUNNER_USER=root keeps root jobs on purpose.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Config } from '../../../config.js';

const run = promisify(execFile);

export interface JobUser {
  name: string;
  uid: number;
  gid: number;
}

/** `name`'s entry of /etc/passwd (or a bare numeric id, as its own group). */
function passwdEntry(name: string): JobUser | null {
  if (/^\d+$/.test(name)) return { name, uid: Number(name), gid: Number(name) };
  for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const fields = line.split(':');
    if (fields[0] === name && fields.length >= 4) return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  return null;
}

/** The user jobs are switched to, or null when they run as the server's own user. */
export function jobUser(config: Pick<Config, 'runnerUser'>): JobUser | null {
  if (process.getuid?.() !== 0) return null;
  const user = passwdEntry(config.runnerUser);
  if (!user) throw new Error(`WHARF_RUNNER_USER: there is no user "${config.runnerUser}" on this machine`);
  return user.uid === 0 ? null : user;
}

/** Gives a job's folder (made by the server: checkout, home, dependencies) to the job's user. */
export async function giveTo(dir: string, user: JobUser): Promise<void> {
  await run('chown', ['-R', `${user.uid}:${user.gid}`, '--', dir], { timeout: 300_000 });
}

/**
 * Closes the server's own files to the job user: the SQLite files (mode 0600) and the
 * repositories' root (0700: repositories, traces, artifacts and uploads are under it). Done at
 * the runner's start; the server itself, running as root, reads and writes them as before.
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
  if (closed.length) log.info({ closed }, 'CI jobs run as another user: the database and repositories were closed to others');
}
