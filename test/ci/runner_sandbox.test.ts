// The built-in runner's sandbox, driven by real pipelines with the server as root (skipped
// otherwise): each job runs as a uid of its own, in its own PID namespace, mounts and /tmp,
// sees none of the server's files, leaves nothing running behind it, is bounded in processes,
// memory and /tmp, and the three ways a developer's .gitlab-ci.yml once reached root fail:
// artifacts swapped for a link after they were chosen, dependencies unpacked through a
// committed link, a process left behind to read later jobs. A runner that cannot make its
// sandbox refuses to start unless WHARF_RUNNER_SANDBOX=none says to run jobs unconfined.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { gitOk, repoUrl, workRepo } from '../transport/git_client.js';
import { hostProcesses } from '../helpers/job_signals.js';

const FIRST_UID = 700000;
const MAX_PROCESSES = 200;

function zipEntries(file: string): Record<string, string> {
  const script = 'import zipfile,sys,json;z=zipfile.ZipFile(sys.argv[1]);print(json.dumps({n:z.read(n).decode("latin-1") for n in z.namelist()}))';
  return JSON.parse(execFileSync('python3', ['-c', script, file], { maxBuffer: 1 << 30 }).toString());
}

describe('CI job sandbox (built-in runner, server as root)', function () {
  this.timeout(180_000);
  let s: TestServer;
  let project: any;
  let n = 0;
  before(async function () {
    if (process.getuid?.() !== 0) this.skip();
    s = await bootServer({
      WHARF_RUNNER: 'shell',
      WHARF_JOB_POLL_MS: '100',
      WHARF_RUNNER_UIDS: `${FIRST_UID}-${FIRST_UID + 999}`,
      WHARF_RUNNER_MAX_PROCESSES: String(MAX_PROCESSES),
      WHARF_RUNNER_MEMORY_MB: '128',
      WHARF_RUNNER_TMP_MB: '16',
      WHARF_RUNNER_DISK_MB: '200',
    });
    project = await createProject(s, ROOT_TOKEN, { name: 'ci-sandbox' });
  });
  after(async () => {
    await s?.close();
  });

  async function settle(projectId: number, pipelineId: number): Promise<{ status: string; jobs: any[]; logs: Record<string, string> }> {
    const end = Date.now() + 120_000;
    for (;;) {
      const p = (await s.get(`/projects/${projectId}/pipelines/${pipelineId}`)).body;
      if (['success', 'failed'].includes(p.status)) {
        const jobs = (await s.get(`/projects/${projectId}/pipelines/${pipelineId}/jobs`)).body as any[];
        const logs: Record<string, string> = {};
        for (const j of jobs) logs[j.name] = (await s.get(`/projects/${projectId}/jobs/${j.id}/trace`)).text;
        return { status: p.status, jobs, logs };
      }
      if (Date.now() > end) throw new Error(`pipeline still ${p.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function run(ci: string) {
    const action = n++ === 0 ? 'create' : 'update';
    await commitFiles(s, project.id, 'master', [{ action, file_path: '.gitlab-ci.yml', content: ci }], { token: ROOT_TOKEN });
    await s.drainJobs();
    const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`)).body;
    return settle(project.id, pipeline.id);
  }

  const lines = (log: string) => log.split('\n').map((l) => l.trim());

  it("runs as a uid of its own in its own namespaces, and sees none of the server's files", async () => {
    const { db, reposDir, serverSecret } = s.deps.config;
    const ci = `probe:
  script:
    - echo "uid=$(id -u) user=$(whoami) dir=$CI_PROJECT_DIR home=$HOME"
    - git log --format=%H -1
    - test -w . && echo checkout-writable
    - echo "processes=$(ls /proc | grep -c '^[0-9]')"
    - for p in ${reposDir} ${path.dirname(db)} ${serverSecret} ${s.dir} ${process.cwd()}; do test -e $p && echo "visible $p" || true; done
    - touch /usr/x 2>/dev/null && echo wrote-usr || echo usr-read-only
    - touch /etc/x 2>/dev/null && echo wrote-etc || echo etc-read-only
    - test "$(hostname)" = wharf-ci && echo own-hostname
    - grep -q NoNewPrivs.*1 /proc/self/status && echo no-new-privs
    - grep CapEff /proc/self/status
`;
    const { status, jobs, logs } = await run(ci);
    const out = lines(logs.probe);
    expect(status, logs.probe).to.equal('success');
    expect(out).to.include(`uid=${FIRST_UID + (jobs[0].id % 1000)} user=ci dir=/builds/${project.path_with_namespace} home=/home/ci`);
    const [head] = (await s.get(`/projects/${project.id}/repository/commits?ref_name=master&per_page=1`)).body;
    expect(out).to.include(head.id);
    expect(out).to.include('checkout-writable');
    expect(out.filter((l) => l.startsWith('visible '))).to.deep.equal([]);
    expect(out).to.include.members(['usr-read-only', 'etc-read-only', 'own-hostname', 'no-new-privs', 'CapEff:\t0000000000000000'.trim()]);
    // bwrap's init, bash, and the few commands of that line: nothing of the host.
    const count = Number(out.find((l) => l.startsWith('processes='))!.slice('processes='.length));
    expect(count).to.be.within(2, 8);
  });

  it('leaves nothing behind: no process, no /tmp or /dev/shm file, for a later job to read', async () => {
    const marker = `sleep 4${process.pid % 1000}.5`;
    const first = await run(`leave:
  script:
    - setsid ${marker} > /dev/null 2>&1 < /dev/null &
    - bash -c 'set -m; ${marker} > /dev/null 2>&1 < /dev/null &'
    - echo left > /tmp/left-behind && echo left > /dev/shm/left-behind && echo left > /var/tmp/left-behind
    - echo started
`);
    expect(first.status, first.logs.leave).to.equal('success');
    expect(hostProcesses({ marker }), 'a process outlived its job').to.deep.equal([]);
    expect(hostProcesses({ uid: FIRST_UID + (first.jobs[0].id % 1000) })).to.deep.equal([]);
    for (const dir of ['/tmp', '/dev/shm', '/var/tmp']) expect(fs.existsSync(path.join(dir, 'left-behind'))).to.equal(false);
    const second = await run(`look:
  script:
    - for f in /tmp/left-behind /dev/shm/left-behind /var/tmp/left-behind; do test -e $f && echo "found $f" || true; done
    - ps -eo args | grep -c '${marker}' || true
    - echo looked
`);
    expect(second.status).to.equal('success');
    expect(lines(second.logs.look).filter((l) => l.startsWith('found '))).to.deep.equal([]);
  });

  it('stores no file swapped for a link after the artifacts were chosen (a process left behind)', async () => {
    // A file only root may read, as the server's own secrets are.
    const secret = path.join(s.dir, 'root-only-secret');
    fs.writeFileSync(secret, 'the-root-only-secret', { mode: 0o600 });
    const { status, jobs, logs } = await run(`pack:
  script:
    - mkdir -p out/sub && head -c 40000000 /dev/urandom > out/a-big && head -c 40000000 /dev/urandom > out/b-big && echo original > out/sub/zz
    - setsid bash -c 'while kill -0 $0 2>/dev/null; do sleep 0.01; done; sleep 0.3; ln -sfn ${secret} out/sub/zz' $$ > /dev/null 2>&1 < /dev/null &
    - sleep 0.2 # the left process has left the job's process group by then
  artifacts:
    paths: [out/]
`);
    expect(status, logs.pack).to.equal('success');
    const zip = path.join(s.dir, 'race.zip');
    const res = await fetch(`${s.url}/api/v4/projects/${project.id}/jobs/${jobs[0].id}/artifacts`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } });
    fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const entries = zipEntries(zip);
    expect(entries['out/sub/zz']).to.equal('original\n');
    const secretText = fs.readFileSync(secret, 'latin1');
    for (const [name, content] of Object.entries(entries)) expect(content.includes(secretText), name).to.equal(false);
  });

  it('unpacks no dependency through a committed link, and says so in the trace', async () => {
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-dep-target-'));
    const other = await createProject(s, ROOT_TOKEN, { name: 'ci-sandbox-deps' });
    const ci = `stages: [build, use]
make:
  stage: build
  script: [rm dep, mkdir dep, echo pwned > dep/pwned]
  artifacts:
    paths: [dep/]
use:
  stage: use
  script: [ls -la dep, echo used]
`;
    const dir = await workRepo([{ '.gitlab-ci.yml': ci }]);
    fs.symlinkSync(target, path.join(dir, 'dep'));
    await gitOk(['add', 'dep'], { cwd: dir });
    await gitOk(['commit', '-q', '-m', 'a link'], { cwd: dir });
    await gitOk(['push', '-q', repoUrl(s, other.path_with_namespace, ROOT_TOKEN, 'root'), 'master'], { cwd: dir });
    await s.drainJobs();
    const [pipeline] = (await s.get(`/projects/${other.id}/pipelines`)).body;
    const { logs } = await settle(other.id, pipeline.id);
    expect(fs.readdirSync(target), 'written through the link').to.deep.equal([]);
    expect(logs.use).to.include('dep/pwned: passes through a symbolic link, not unpacked');
    fs.rmSync(target, { recursive: true, force: true });
  });

  it('bounds processes (a fork bomb), /tmp, disk and memory; the server stays up', async () => {
    let most = 0;
    let sampling = true;
    let uid = -1;
    const sampler = (async () => {
      while (sampling) {
        if (uid >= 0) most = Math.max(most, hostProcesses({ uid }).length);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const pending = run(`bomb:
  script:
    - ulimit -u
    - 'bomb() { bomb | bomb & }; bomb 2>/dev/null; sleep 2; exit 1'
`);
    for (let i = 0; i < 100 && uid < 0; i++) {
      const [job] = (await s.db('ci_builds').where({ project_id: project.id, name: 'bomb' }).orderBy('id', 'desc').limit(1)) as any[];
      if (job) uid = FIRST_UID + (job.id % 1000);
      else await new Promise((r) => setTimeout(r, 20));
    }
    const bomb = await pending;
    sampling = false;
    await sampler;
    expect(bomb.status).to.equal('failed');
    expect(lines(bomb.logs.bomb)).to.include(String(MAX_PROCESSES));
    expect(most).to.be.greaterThan(10); // it did fork
    expect(most).to.be.at.most(MAX_PROCESSES);

    const tmp = await run(`fill:\n  script:\n    - head -c 40000000 /dev/zero > /tmp/fill\n`);
    expect(tmp.status).to.equal('failed');
    expect(tmp.logs.fill).to.include('No space left on device');

    const disk = await run(`spill:\n  script:\n    - for i in 1 2 3 4 5; do fallocate -l 50M spill-$i; done\n    - sleep 60\n`);
    expect(disk.status).to.equal('failed');
    expect(disk.logs.spill).to.include("ERROR: Job failed: the job's files took more than 209715200 bytes");
    const big = await run(`big:\n  script:\n    - head -c 300000000 /dev/zero > one-big-file\n`);
    expect(big.status).to.equal('failed');
    expect(big.logs.big).to.include('File size limit exceeded');

    const memory = await run(`hog:\n  script:\n    - python3 -c 'x = bytearray(400 * 1024 * 1024); print(len(x))'\n`);
    expect(memory.status).to.equal('failed');
    if (fs.existsSync('/sys/fs/cgroup/memory/cgroup.procs') || fs.existsSync('/sys/fs/cgroup/cgroup.controllers')) {
      expect(memory.logs.hog).to.include("ERROR: Job failed: out of memory (the job's limit is 134217728 bytes)");
    }
    expect((await s.get('/version')).status).to.equal(200);
  });
});

/** Whether every folder down to `dir` lets other users through, and `dir` lets them read. */
function readableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return (fs.statSync(dir).mode & 0o004) !== 0;
  }
}

describe('CI job sandbox: a runner that cannot make one', function () {
  this.timeout(60_000);
  it('refuses to start, unless WHARF_RUNNER_SANDBOX=none accepts unconfined jobs', async () => {
    let failure: Error | null = null;
    try {
      const s = await bootServer({ WHARF_RUNNER: 'shell', WHARF_RUNNER_BWRAP: '/nonexistent/bwrap' });
      await s.close();
    } catch (err) {
      failure = err as Error;
    }
    expect(failure?.message).to.match(/^WHARF_RUNNER=shell: the CI job sandbox cannot be made/);
    expect(failure?.message).to.include('WHARF_RUNNER_SANDBOX=none');
    const s = await bootServer({ WHARF_RUNNER: 'shell', WHARF_RUNNER_BWRAP: '/nonexistent/bwrap', WHARF_RUNNER_SANDBOX: 'none', WHARF_JOB_POLL_MS: '100' });
    try {
      expect(s.running.ciRunner).to.not.equal(null);
      // Unconfined jobs still run as their own user, and still unpack their dependencies, with
      // the runner's helper read from the installation: only where other users may read it
      // (a checkout in a private folder, as mktemp makes, is not such a place).
      if (!readableByOthers(process.cwd())) return;
      const project = await createProject(s, ROOT_TOKEN, { name: 'unconfined' });
      const ci = `stages: [build, use]\nmake:\n  stage: build\n  script: [mkdir -p dist, echo built-bits > dist/app.txt]\n  artifacts:\n    paths: [dist/]\nuse:\n  stage: use\n  script: ['echo "uid=$(id -u)"', cat dist/app.txt]\n`;
      await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }], { token: ROOT_TOKEN });
      await s.drainJobs();
      const [pipeline] = (await s.get(`/projects/${project.id}/pipelines`)).body;
      let status = pipeline.status;
      for (let i = 0; i < 600 && !['success', 'failed'].includes(status); i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await s.get(`/projects/${project.id}/pipelines/${pipeline.id}`)).body.status;
      }
      const use = ((await s.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`)).body as any[]).find((j) => j.name === 'use');
      const log = (await s.get(`/projects/${project.id}/jobs/${use.id}/trace`)).text;
      expect(status, log).to.equal('success');
      if (process.getuid?.() === 0) expect(log).to.include(`uid=${600000 + use.id}`);
      expect(log).to.include('built-bits');
    } finally {
      await s.close();
    }
  });
});
