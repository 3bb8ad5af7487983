// A fresh checkout of the pipeline's commit for one job (GitLab Runner's `git clone` +
// `git checkout -f -q <sha>`), from the project's bare repository with the native git, in the
// job's temp folder. git runs with a minimal environment too, and shares the repository's
// objects read-only (`--shared`): nothing is written to the repository. A job that runs as
// another user (job_user.ts) cannot read the repository, so its checkout gets its own copy of
// the objects (`--no-local`).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function checkout(bareRepo: string, sha: string, dir: string, home: string, ownObjects = false): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not a commit id: ${sha}`);
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  await run('git', ['clone', '-q', ownObjects ? '--no-local' : '--shared', '--no-checkout', '--', bareRepo, dir], { env, timeout: 300_000 });
  await run('git', ['-C', dir, 'checkout', '-q', '-f', '--detach', sha], { env, timeout: 300_000 });
}
