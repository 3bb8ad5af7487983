// A server running as root runs CI jobs as WHARF_RUNNER_USER (default `nobody`), as GitLab
// Runner runs them as its own user: the job is that user, cannot read the database nor the
// repositories (closed to others at the runner's start), cannot write into them, still has a
// working checkout with its history, and a fork bomb stops at its process limit instead of
// flooding the machine until the timeout. Skipped when the tests do not run as root (the
// server then cannot switch users, and jobs run as its own user).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';

const nobodyUid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());

function processesOf(uid: number): number {
  let count = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.statSync(`/proc/${entry}`).uid === uid) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

describe('CI jobs of a root server run as another user', function () {
  this.timeout(120_000);
  let s: TestServer;
  let project: any;
  let n = 0;
  before(async function () {
    if (process.getuid?.() !== 0) this.skip();
    s = await bootServer({ WHARF_RUNNER: 'shell', WHARF_JOB_POLL_MS: '100' });
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-runner-user' });
  });
  after(async () => {
    await s?.close();
  });

  async function run(ci: string): Promise<{ status: string; log: string }> {
    const action = n++ === 0 ? 'create' : 'update';
    await commitFiles(s, project.id, 'master', [{ action, file_path: '.gitlab-ci.yml', content: ci }], { token: ROOT_TOKEN });
    await s.drainJobs();
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`)).body;
    const end = Date.now() + 60_000;
    for (;;) {
      const p = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}`)).body;
      if (['success', 'failed'].includes(p.status)) {
        const [job] = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`)).body;
        return { status: p.status, log: (await s.get(`/projects/${project.id}/jobs/${job.id}/trace`)).text };
      }
      if (Date.now() > end) throw new Error(`pipeline still ${p.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("is nobody, in its own checkout with history, and can neither read nor write the server's files", async () => {
    const db = s.deps.config.db;
    const repos = s.deps.config.reposDir;
    const sqlite = !/^postgres/.test(db);
    // The test's data folders are private temp folders; open them up as an installation's
    // usual 0755 folders are, so that only the runner's own closing keeps the job out.
    for (const dir of new Set([path.dirname(repos), ...(sqlite ? [path.dirname(db)] : [])])) fs.chmodSync(dir, 0o755);
    const ci = `probe:
  script:
    - echo "uid=$(id -u)"
    - git log --format=%H -1
    - test -w . && echo checkout-writable
    - touch ${repos}/intruder 2>/dev/null && echo wrote-repos || echo repos-closed
    - ls ${repos} >/dev/null 2>&1 && echo listed-repos || echo repos-unlisted
    ${sqlite ? `- cat ${db} >/dev/null 2>&1 && echo read-db || echo db-closed` : '- echo db-closed'}
`;
    const { status, log } = await run(ci);
    const lines = log.split('\n').map((l) => l.trim()); // the output lines, not the echoed commands
    expect(status, log).to.equal('success');
    expect(lines).to.include(`uid=${nobodyUid}`);
    const [head] = (await s.get(`/projects/${project.id}/repository/commits?ref_name=master&per_page=1`)).body;
    expect(log).to.include(head.id);
    expect(lines).to.include('checkout-writable');
    expect(lines).to.include('repos-closed');
    expect(lines).to.include('repos-unlisted');
    expect(lines).to.include('db-closed');
    expect(fs.existsSync(`${repos}/intruder`)).to.equal(false);
    expect(fs.statSync(repos).mode & 0o077).to.equal(0);
    if (sqlite) expect(fs.statSync(db).mode & 0o077).to.equal(0);
  });

  it('stops a fork bomb at the process limit (RLIMIT_NPROC binds a job that is not root)', async () => {
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, processesOf(nobodyUid));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const { status, log } = await run(`bomb:\n  script:\n    - ulimit -u\n    - 'bomb() { bomb | bomb & }; bomb 2>/dev/null; sleep 2; exit 1'\n`);
    sampling = false;
    await sampler;
    expect(status).to.equal('failed');
    const limit = Number(log.split('\n').map((l) => l.trim()).find((l) => /^\d+$/.test(l)));
    expect(limit).to.be.greaterThan(0);
    expect(most).to.be.greaterThan(10); // it did fork
    expect(most).to.be.at.most(limit);
    expect((await s.get('/version')).status).to.equal(200);
  });
});
