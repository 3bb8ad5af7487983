// A fresh checkout of the pipeline's commit for one job (GitLab Runner's `git clone` +
// `git checkout -f -q <sha>`), from the project's bare repository with the native git, into the
// job's folder, before any of the job's code runs. git runs with a minimal environment and
// copies the objects it needs (`--no-local`): the job's sandbox does not show the repository,
// and no file of the checkout is a hard link into it (the checkout is then given to the job's
// user, which must not make the repository's files its own).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function checkout(bareRepo: string, sha: string, dir: string, home: string): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new Error(`not a commit id: ${sha}`);
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  await run('git', ['clone', '-q', '--no-local', '--no-checkout', '--', bareRepo, dir], { env, timeout: 300_000 });
  await run('git', ['-C', dir, 'checkout', '-q', '-f', '--detach', sha], { env, timeout: 300_000 });
}
