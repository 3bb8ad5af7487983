// git transport benchmark: `git clone` and `git push` through Wharf's smart HTTP against
// the same work over `file://` (git's pack protocol with no HTTP and no Wharf: the native
// floor). Run by hand, never in CI:
//   node dist/bench/transport.js [runs]                       # a synthetic repo of 3,000 commits
//   BENCH_REPO=/tmp/some-repo.git node dist/bench/transport.js [runs]
// Prints a markdown table (also written to bench/results/transport.md). Aim: within 1.5x.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { statisticsSettled } from '../src/services/after_push.js';

const TOKEN = 'bench-root-token-0123456789abcdef';
const runs = Number(process.argv[2] ?? 3);
const ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir() };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Async: the server runs in this process, a synchronous git would deadlock it. */
function git(args: string[], cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'credential.helper=', ...args], { cwd, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args.join(' ')}: ${err}`))));
  });
}

/** A bare repository of `commits` commits touching a few hundred files, made by fast-import. */
function synthesize(dir: string, commits: number): string {
  const repo = path.join(dir, 'source.git');
  execFileSync('git', ['init', '-q', '--bare', repo], { env: ENV });
  let script = '';
  for (let i = 1; i <= commits; i++) {
    const body = `line ${i}\n`.repeat(20 + (i % 50)) + `${'x'.repeat(i % 200)}\n`;
    const msg = `commit ${i}`;
    script += `commit refs/heads/master\nmark :${i}\ncommitter Bench <b@example.com> ${1500000000 + i * 60} +0000\n`;
    script += `data ${Buffer.byteLength(msg)}\n${msg}\n${i > 1 ? `from :${i - 1}\n` : ''}`;
    script += `M 100644 inline dir${i % 20}/file${i % 300}.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`;
    if (i % 500 === 0) script += `reset refs/tags/v${i / 500}\nfrom :${i}\n\n`;
  }
  execFileSync('git', ['--git-dir', repo, 'fast-import', '--quiet'], { input: script, env: ENV, maxBuffer: 1 << 30 });
  execFileSync('git', ['--git-dir', repo, 'gc', '-q', '--aggressive'], { env: ENV });
  return repo;
}

async function timeIt(f: (i: number) => Promise<void>, setup?: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await setup?.();
    const t = process.hrtime.bigint();
    await f(i);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-bench-transport-'));
  const source = process.env.BENCH_REPO ?? synthesize(dir, 3000);
  const count = execFileSync('git', ['--git-dir', source, 'rev-list', '--all', '--count'], { env: ENV }).toString().trim();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WHARF_DB: path.join(dir, 'db', 'wharf.sqlite3'),
    WHARF_REPOS: path.join(dir, 'repos'),
    WHARF_ROOT_TOKEN: TOKEN,
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  const base = new URL(server.url);
  const newProject = async (name: string): Promise<{ id: number; url: string }> => {
    const res = await fetch(`${server.url}/api/v4/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, visibility: 'private' }),
    });
    const body = (await res.json()) as { id: number; path_with_namespace: string };
    return { id: body.id, url: `${base.origin.replace('//', `//root:${TOKEN}@`)}/${body.path_with_namespace}.git` };
  };
  const refspecs = ['refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'];
  try {
    const pushNative = await timeIt(async (i) => {
      const target = path.join(dir, `native-${i}.git`);
      await git(['init', '-q', '--bare', target]);
      await git(['push', '-q', `file://${target}`, ...refspecs], source);
    });
    const projects: { id: number; url: string }[] = [];
    for (let i = 0; i < runs; i++) projects.push(await newProject(`push-${i}`));
    const urls = projects.map((p) => p.url);
    const settle = () => Promise.all(projects.map((p) => statisticsSettled(p.id)));
    // Each run waits, untimed, for the previous run's background statistics.
    const pushWharf = await timeIt((i) => git(['push', '-q', urls[i], ...refspecs], source), settle);
    await settle();
    const cloneNative = await timeIt(async (i) => git(['clone', '-q', '--bare', '--no-local', `file://${source}`, path.join(dir, `cn-${i}`)]));
    const cloneWharf = await timeIt(async (i) => git(['clone', '-q', '--bare', urls[0], path.join(dir, `cw-${i}`)]));

    const row = (name: string, wharf: number, native: number) =>
      `| ${name} | ${wharf.toFixed(0)} ms | ${native.toFixed(0)} ms | ${(wharf / native).toFixed(2)}x |`;
    const table = [
      `Transport benchmark: ${count} commits, median of ${runs} runs, git ${execFileSync('git', ['--version']).toString().trim().replace('git version ', '')}, ${os.cpus().length} CPUs`,
      '',
      '| operation | Wharf (smart HTTP) | file:// | ratio |',
      '|---|---|---|---|',
      row('git push (all branches and tags, to an empty project)', pushWharf, pushNative),
      row('git clone --bare', cloneWharf, cloneNative),
    ].join('\n');
    console.log(table);
    fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join('bench', 'results', 'transport.md'), `${table}\n`);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
