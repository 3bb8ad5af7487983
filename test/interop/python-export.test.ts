// Drives export and import with Debian's python-gitlab 3.12 (test/interop/python_jobs/),
// against a server that runs its background jobs, as the export and import are jobs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/interop/python_jobs/export_import.py');

describe('interop: python-gitlab 3.12 export and import', function () {
  this.timeout(120_000);
  let s: TestServer;
  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '2', WHARF_JOB_POLL_MS: '100' });
  });
  after(async () => s?.close());

  it('runs export_import.py: project.exports with download(), gl.projects.import_project, project.imports', async () => {
    // Asynchronous: the server answers from this same process.
    const run = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('/usr/bin/python3', [SCRIPT], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', WHARF_URL: s.url, WHARF_TOKEN: ROOT_TOKEN },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    expect(run.code, run.out).to.equal(0);
  });
});
