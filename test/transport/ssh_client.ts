// The real OpenSSH client (and git through GIT_SSH_COMMAND) against a test server's SSH port:
// no user configuration, no agent, no prompts, only the key a test names, and the server's host
// key pinned in a known_hosts file made from db/ssh_host_ed25519_key.pub.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestServer } from '../helpers/server.js';
import { git, tempDir, type GitRun } from './git_client.js';

export interface SshClient {
  /** Runs `ssh` with `args` after the connection options (host given by the caller). */
  ssh(args: string[], key?: string | null, input?: string): Promise<GitRun>;
  /** Runs git with GIT_SSH_COMMAND set for `key`. */
  git(args: string[], key: string | null, opts?: { cwd?: string; env?: Record<string, string> }): Promise<GitRun>;
  /** The ssh command line for `key` (null: no key at all). */
  command(key: string | null): string;
  port: number;
}

export function sshClient(s: TestServer): SshClient {
  const port = s.running.ssh!.port;
  const dir = tempDir('wharf-ssh-client-');
  const knownHosts = path.join(dir, 'known_hosts');
  const pub = fs.readFileSync(`${s.deps.config.sshHostKey}.pub`, 'utf8').trim();
  fs.writeFileSync(knownHosts, `[127.0.0.1]:${port} ${pub}\n`);
  const options = (key: string | null) => [
    '-F',
    '/dev/null',
    '-o',
    `UserKnownHostsFile=${knownHosts}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'IdentityAgent=none',
    '-o',
    'LogLevel=ERROR',
    ...(key ? ['-i', key] : ['-o', 'IdentityFile=/dev/null']),
  ];
  return {
    port,
    command: (key) => ['ssh', ...options(key)].join(' '),
    ssh(args, key = null, input) {
      return new Promise((resolve, reject) => {
        const child = spawn('ssh', [...options(key), '-p', String(port), ...args], { env: { PATH: process.env.PATH, HOME: dir } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      });
    },
    git(args, key, opts = {}) {
      return git(args, { cwd: opts.cwd, env: { ...opts.env, GIT_SSH_COMMAND: ['ssh', ...options(key)].join(' ') } });
    },
  };
}
