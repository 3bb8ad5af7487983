// The real `git` command as a client of a test server: never prompting, never reading the
// machine's or the user's configuration, run asynchronously (the server shares the process).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { TestServer } from '../helpers/server.js';

export interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-git-home-'));

const CLIENT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  LANG: 'C',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  GIT_AUTHOR_NAME: 'Pat Pusher',
  GIT_AUTHOR_EMAIL: 'pat@example.com',
  GIT_COMMITTER_NAME: 'Pat Pusher',
  GIT_COMMITTER_EMAIL: 'pat@example.com',
};

/** Runs git (no credential helper, so a 401 fails at once instead of prompting). */
export function git(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: Buffer } = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'credential.helper=', '-c', 'init.defaultBranch=master', ...args], {
      cwd: opts.cwd,
      env: { ...CLIENT_ENV, ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input);
  });
}

/** Like git(), but a failure throws with git's output. */
export async function gitOk(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const r = await git(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** The clone URL of a project, with a token as the Basic password when given. */
export function repoUrl(s: TestServer, fullPath: string, token?: string, user = 'anyone'): string {
  const u = new URL(`${s.url}/${fullPath}.git`);
  if (token) {
    u.username = user;
    u.password = token;
  }
  return u.toString();
}

export function tempDir(prefix = 'wharf-client-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A new work tree with one commit per entry of `commits` (file name → content), on master. */
export async function workRepo(commits: Record<string, string>[] = [{ 'README.md': '# hello\n' }]): Promise<string> {
  const dir = tempDir('wharf-work-');
  await gitOk(['init', '-q', dir]);
  for (const [i, files] of commits.entries()) await commit(dir, files, `commit ${i + 1}`);
  return dir;
}

export async function commit(dir: string, files: Record<string, string | Buffer>, message = 'change'): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  await gitOk(['add', '-A'], { cwd: dir });
  await gitOk(['commit', '-q', '--allow-empty', '-m', message], { cwd: dir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}
