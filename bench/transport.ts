// git transport benchmark: `git clone` and `git push` through Wharf's smart HTTP and its SSH
// server against the same work over `file://` (git's pack protocol with no HTTP, no SSH and no
// Wharf: the native floor). Run by hand, never in CI:
//   node dist/bench/transport.js [runs]                       # a synthetic repo of 3,000 commits
//   BENCH_REPO=/tmp/some-repo.git node dist/bench/transport.js [runs]
// Prints a markdown table (also written to bench/results/transport.md). Aim: within 1.5x.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api, ROOT_TOKEN, runMain, writeResults } from './harness.js';
import { gitAsync, gitSync, median, msSince, now, withInProcessServer } from './timing.js';
import { freePort } from '../test/helpers/free_port.js';

const runs = Number(process.argv[2] ?? 3);
const ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir() };

/** Async: the server runs in this process, a synchronous git would deadlock it. */
const git = (args: string[], cwd?: string) => gitAsync(['-c', 'credential.helper=', ...args], { cwd, env: ENV });

/** A bare repository of `commits` commits touching a few hundred files, made by fast-import. */
function synthesize(dir: string, commits: number): string {
  const repo = path.join(dir, 'source.git');
  gitSync(['init', '-q', '--bare', repo], { env: ENV });
  let script = '';
  for (let i = 1; i <= commits; i++) {
    const body = `line ${i}\n`.repeat(20 + (i % 50)) + `${'x'.repeat(i % 200)}\n`;
    const msg = `commit ${i}`;
    script += `commit refs/heads/master\nmark :${i}\ncommitter Bench <b@example.com> ${1500000000 + i * 60} +0000\n`;
    script += `data ${Buffer.byteLength(msg)}\n${msg}\n${i > 1 ? `from :${i - 1}\n` : ''}`;
    script += `M 100644 inline dir${i % 20}/file${i % 300}.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`;
    if (i % 500 === 0) script += `reset refs/tags/v${i / 500}\nfrom :${i}\n\n`;
  }
  gitSync(['--git-dir', repo, 'fast-import', '--quiet'], { input: script, env: ENV });
  gitSync(['--git-dir', repo, 'gc', '-q', '--aggressive'], { env: ENV });
  return repo;
}

/** A key pair made by ssh-keygen, and the environment that makes git use it over SSH. */
function sshClientEnv(dir: string): { env: NodeJS.ProcessEnv; publicKey: string } {
  const key = path.join(dir, 'bench_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bench', '-f', key]);
  const ssh = `ssh -F /dev/null -i ${key} -o IdentitiesOnly=yes -o IdentityAgent=none -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes`;
  return { env: { ...ENV, GIT_SSH_COMMAND: ssh }, publicKey: fs.readFileSync(`${key}.pub`, 'utf8').trim() };
}

async function main() {
  const sshPort = await freePort();
  await withInProcessServer(
    'wharf-bench-transport-',
    async (server, dir) => {
      const source = process.env.BENCH_REPO ?? synthesize(dir, 3000);
      const count = gitSync(['--git-dir', source, 'rev-list', '--all', '--count'], { env: ENV }).toString().trim();
      const root = new Api(server.url);
      const base = new URL(server.url);
      const ssh = sshClientEnv(dir);
      await root.call('POST', '/user/keys', { title: 'bench', key: ssh.publicKey });
      const gitSsh = (args: string[], cwd?: string) => gitAsync(args, { cwd, env: ssh.env });
      const newProject = async (name: string): Promise<{ id: number; url: string; ssh: string }> => {
        const { body } = await root.call<{ id: number; path_with_namespace: string; ssh_url_to_repo: string }>('POST', '/projects', { name, visibility: 'private' });
        return { id: body.id, url: `${base.origin.replace('//', `//root:${ROOT_TOKEN}@`)}/${body.path_with_namespace}.git`, ssh: body.ssh_url_to_repo };
      };
      const refspecs = ['refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'];
      const projects: { id: number; url: string; ssh: string }[] = [];
      for (let i = 0; i < 2 * runs; i++) projects.push(await newProject(`push-${i}`));
      const settle = () => server.jobs.drain();
      // The three transports take turns within each run, so that a change in the machine's load
      // falls on all of them alike; each timing waits, untimed, for background statistics.
      const timed = async (f: () => Promise<unknown>): Promise<number> => {
        await settle();
        const t = now();
        await f();
        return msSince(t);
      };
      const times = {
        pushNative: [] as number[],
        pushHttp: [] as number[],
        pushSsh: [] as number[],
        cloneNative: [] as number[],
        cloneHttp: [] as number[],
        cloneSsh: [] as number[],
      };
      for (let i = 0; i < runs; i++) {
        const target = path.join(dir, `native-${i}.git`);
        await git(['init', '-q', '--bare', target]);
        times.pushNative.push(await timed(() => git(['push', '-q', `file://${target}`, ...refspecs], source)));
        times.pushHttp.push(await timed(() => git(['push', '-q', projects[i].url, ...refspecs], source)));
        times.pushSsh.push(await timed(() => gitSsh(['push', '-q', projects[runs + i].ssh, ...refspecs], source)));
      }
      for (let i = 0; i < runs; i++) {
        times.cloneNative.push(await timed(() => git(['clone', '-q', '--bare', '--no-local', `file://${source}`, path.join(dir, `cn-${i}`)])));
        times.cloneHttp.push(await timed(() => git(['clone', '-q', '--bare', projects[0].url, path.join(dir, `cw-${i}`)])));
        times.cloneSsh.push(await timed(() => gitSsh(['clone', '-q', '--bare', projects[runs].ssh, path.join(dir, `cs-${i}`)])));
      }
      const [pushNative, pushWharf, pushSsh, cloneNative, cloneWharf, cloneSsh] = Object.values(times).map(median);

      const ms = (t: number) => `${t.toFixed(0)} ms`;
      const ratio = (t: number, native: number) => `${(t / native).toFixed(2)}x`;
      const row = (name: string, http: number, overSsh: number, native: number) =>
        `| ${name} | ${ms(native)} | ${ms(http)} (${ratio(http, native)}) | ${ms(overSsh)} (${ratio(overSsh, native)}) |`;
      const table = [
        `Transport benchmark: ${count} commits, median of ${runs} runs, git ${gitSync(['--version']).toString().trim().replace('git version ', '')}, ${os.cpus().length} CPUs`,
        '',
        '| operation | file:// | Wharf smart HTTP (ratio) | Wharf SSH (ratio) |',
        '|---|---|---|---|',
        row('git push (all branches and tags, to an empty project)', pushWharf, pushSsh, pushNative),
        row('git clone --bare', cloneWharf, cloneSsh, cloneNative),
      ].join('\n');
      console.log(table);
      writeResults('transport.md', `${table}\n`);
    },
    { WHARF_SSH_PORT: String(sshPort), WHARF_SSH_HOST: '127.0.0.1' },
  );
}

runMain(main);
