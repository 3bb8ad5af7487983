// Drives the real server with Debian's python-gitlab 3.12 (the scripts in test/interop/python/).
// Needs /usr/bin/python3 with the `gitlab` module: `make system-deps` installs python3-gitlab.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { ChildServer } from '../helpers/child_server.js';

// The interpreter that has Debian's python3-gitlab; the `python3` on PATH may be another one.
const PYTHON = '/usr/bin/python3';
// Compiled to dist/test/interop/; the scripts stay in the source tree.
const SCRIPTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/interop/python');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runScript(script: string, env: Record<string, string>, timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [path.join(SCRIPTS, script)], {
      // No __pycache__ of the imported _wharf.py in the source tree.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('interop: python-gitlab 3.12', function () {
  this.timeout(110_000);
  let s: TestServer;

  before(async function () {
    const probe = spawnSync(PYTHON, ['-c', 'import gitlab; print(gitlab.__version__)'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      throw new Error(`${PYTHON} cannot import gitlab (python-gitlab). Run \`make system-deps\` ` + `(apt-get install python3-gitlab).\n${probe.stderr}`);
    }
    // Pages on (WHARF_PAGES_HOST), so that the Pages domain managers have routes to speak to.
    s = await bootServer({ WHARF_PAGES_HOST: 'pages.example.io' });
  });
  after(async () => s?.close());

  // Every script in test/interop/python/ runs, each against the same server; a script
  // names its own resources so that they do not collide. Modules named `_*.py` (the shared
  // preamble, _wharf.py) are imported by the scripts, not run.
  for (const script of fs
    .readdirSync(SCRIPTS)
    .filter((f) => f.endsWith('.py') && !f.startsWith('_'))
    .sort()) {
    it(`runs ${script}`, async () => {
      // process_metrics lists the processes that run jobs, which this test server does not:
      // a second Wharf process on the same database runs them while sidekiq.py looks.
      const jobs = script === 'sidekiq.py' ? await ChildServer.start(s.dir, { WHARF_DB: s.deps.config.db, WHARF_JOB_CONCURRENCY: '1' }) : null;
      try {
        await expectScriptPasses(script, 100_000);
      } finally {
        await jobs?.stop();
      }
    });
  }

  async function expectScriptPasses(script: string, timeoutMs: number): Promise<void> {
    const run = await runScript(script, { WHARF_URL: s.url, WHARF_TOKEN: ROOT_TOKEN }, timeoutMs);
    const report = `${script} exited with ${run.code ?? run.signal}\n` + `--- stdout ---\n${run.stdout}` + `--- stderr ---\n${run.stderr}`;
    if (process.env.WHARF_INTEROP_VERBOSE) console.log(report);
    expect(run.code, report).to.equal(0);
  }
});
