// Drives CI with Debian's python-gitlab 3.12 (test/interop/python_ci/ci.py): variables,
// pipelines, jobs, traces, deployments, environments and commit statuses through its managers,
// unchanged, against a server whose built-in shell runner runs the jobs (WHARF_RUNNER=shell)
// and whose background jobs create the pipelines of pushes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/interop/python_ci/ci.py');

describe('interop: python-gitlab 3.12 CI managers', function () {
  this.timeout(150_000);
  let s: TestServer;
  before(async () => {
    s = await bootServer({ WHARF_RUNNER: 'shell', WHARF_RUNNER_CONCURRENCY: '2', WHARF_JOB_CONCURRENCY: '2', WHARF_JOB_POLL_MS: '100' });
  });
  after(async () => s?.close());

  it('runs ci.py: group/project variables, pipelines (create, retry, cancel), jobs and trace, deployments, environments, commit statuses', async () => {
    // Asynchronous: the server answers from this same process.
    const run = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', WHARF_URL: s.url, WHARF_TOKEN: ROOT_TOKEN };
      const child = spawn('/usr/bin/python3', [SCRIPT], { env });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 140_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    expect(run.code, run.out).to.equal(0);
  });
});
