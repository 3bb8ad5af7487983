// Housekeeping as GitLab 10.8 does it: every push counts (pushes_since_gc); the 10th queues an
// incremental repack, the 50th a full repack, the 200th a gc, which starts the count again;
// POST /projects/:id/housekeeping queues it now (201), 409 while one is queued or running,
// 403 below master, 401 signed out. The jobs are run by hand (WHARF_JOB_CONCURRENCY=0) and
// their effect is read from the repository with `git count-objects -v` and its files.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { git as bareGit, expectFsckClean } from '../helpers/bare_git.js';
import { commit, git, gitOk, repoUrl, workRepo } from '../transport/git_client.js';
import { addProjectMembers } from '../helpers/roles.js';
import { DEVELOPER, MASTER } from '../../src/policy/levels.js';
import type { JobRow } from '../../src/store/job_queue.js';
import { runHousekeeping } from '../../src/git/housekeeping.js';

function counts(gitdir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of bareGit(gitdir, ['count-objects', '-v']).trim().split('\n')) {
    const [k, v] = line.split(': ');
    out[k] = Number(v);
  }
  return out;
}

const packFiles = (gitdir: string, ext: string) => fs.readdirSync(path.join(gitdir, 'objects', 'pack')).filter((f) => f.endsWith(ext));

describe('housekeeping', function () {
  this.timeout(120_000);
  let s: TestServer;
  let owner: { token: string };
  let dev: { token: string; user: { id: number } };
  let maintainer: { token: string; user: { id: number } };

  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '0' });
    owner = await s.createUser('hk-owner');
    dev = await s.createUser('hk-dev');
    maintainer = await s.createUser('hk-master');
  });
  after(async () => s.close());

  async function project(name: string) {
    const r = await s.post('/projects', { token: owner.token, json: { name } });
    expect(r.status, r.text).to.equal(201);
    return { id: r.body.id as number, path: r.body.path_with_namespace as string, gitdir: s.deps.repos.pathFor(r.body.path_with_namespace) };
  }
  const housekeepingJobs = async (projectId: number): Promise<(JobRow & { task: string })[]> =>
    (await s.db('jobs').where({ kind: 'git_garbage_collect' }).orderBy('id'))
      .map((r: JobRow) => ({ ...r, task: JSON.parse(r.payload).task, projectId: JSON.parse(r.payload).projectId }))
      .filter((r: { projectId: number }) => r.projectId === projectId);
  const pushes = async (id: number) => (await s.db('projects').where({ id }).first('pushes_since_gc')).pushes_since_gc;

  it('follows the housekeeping settings: the periods, bitmaps, and housekeeping_enabled', async () => {
    const settings = async (json: Record<string, unknown>) => expect((await s.put('/application/settings', { json })).status).to.equal(200);
    await settings({ housekeeping_incremental_repack_period: 2, housekeeping_full_repack_period: 3, housekeeping_gc_period: 4, housekeeping_bitmaps_enabled: false });
    try {
      const p = await project('tuned');
      const dir = await workRepo();
      const url = repoUrl(s, p.path, owner.token);
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
      expect(await housekeepingJobs(p.id)).to.have.length(0);
      await commit(dir, { 'b.txt': 'b\n' }, 'second');
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
      await s.drainJobs(); // one housekeeping job per project at a time
      await commit(dir, { 'c.txt': 'c\n' }, 'third');
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
      await s.drainJobs();
      expect((await housekeepingJobs(p.id)).map((j) => [j.task, j.state])).to.deep.equal([
        ['incremental_repack', 'succeeded'],
        ['full_repack', 'succeeded'],
      ]);
      expect(packFiles(p.gitdir, '.bitmap')).to.deep.equal([]); // bitmaps off: a full repack writes none

      await settings({ housekeeping_enabled: false });
      await commit(dir, { 'd.txt': 'd\n' }, 'fourth');
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
      expect(await housekeepingJobs(p.id)).to.have.length(2); // the 4th push would have been a gc
    } finally {
      await settings({
        housekeeping_enabled: true,
        housekeeping_incremental_repack_period: 10,
        housekeeping_full_repack_period: 50,
        housekeeping_gc_period: 200,
        housekeeping_bitmaps_enabled: true,
      });
    }
  });

  it('repacks after 10 pushes, fully after 50, and collects garbage after 200, as GitLab counts them', async () => {
    const p = await project('busy');
    const dir = await workRepo();
    const url = repoUrl(s, p.path, owner.token);
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    for (let i = 2; i <= 9; i++) {
      await commit(dir, { [`f${i}.txt`]: `${i}\n` }, `push ${i}`);
      await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    }
    expect(await pushes(p.id)).to.equal(9);
    expect(await housekeepingJobs(p.id)).to.have.length(0);
    await s.drainJobs(); // statistics only
    const loose = counts(p.gitdir);
    expect(loose.count).to.be.greaterThan(0); // small pushes arrive as loose objects

    await commit(dir, { 'f10.txt': '10\n' }, 'push 10');
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    let jobs = await housekeepingJobs(p.id);
    expect(jobs.map((j) => [j.task, j.state, j.queue])).to.deep.equal([['incremental_repack', 'queued', 'git_garbage_collect']]);
    await s.drainJobs();
    jobs = await housekeepingJobs(p.id);
    expect(jobs[0].state).to.equal('succeeded');
    expect(jobs[0].progress).to.match(/^incremental_repack of .*busy finished \(0 loose objects, \d+ packs\)$/);
    expect(counts(p.gitdir).count).to.equal(0);
    expect(packFiles(p.gitdir, '.bitmap')).to.deep.equal([]); // an incremental repack writes none
    expect(await pushes(p.id)).to.equal(10);

    // The 50th push: everything in one pack, with a bitmap.
    await s.db('projects').where({ id: p.id }).update({ pushes_since_gc: 49 });
    await commit(dir, { 'f50.txt': '50\n' }, 'push 50');
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    await s.drainJobs();
    jobs = await housekeepingJobs(p.id);
    expect(jobs.map((j) => [j.task, j.state])).to.deep.equal([
      ['incremental_repack', 'succeeded'],
      ['full_repack', 'succeeded'],
    ]);
    expect(counts(p.gitdir)).to.include({ count: 0, packs: 1 });
    expect(packFiles(p.gitdir, '.bitmap')).to.have.length(1);
    expect(fs.existsSync(path.join(p.gitdir, 'packed-refs'))).to.equal(false);

    // The 200th: git gc (refs packed too), and the count starts again.
    await s.db('projects').where({ id: p.id }).update({ pushes_since_gc: 199 });
    const last = await commit(dir, { 'f200.txt': '200\n' }, 'push 200');
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    expect(await pushes(p.id)).to.equal(0);
    await s.drainJobs();
    jobs = await housekeepingJobs(p.id);
    expect(jobs.map((j) => [j.task, j.state])).to.deep.equal([
      ['incremental_repack', 'succeeded'],
      ['full_repack', 'succeeded'],
      ['gc', 'succeeded'],
    ]);
    expect(counts(p.gitdir)).to.include({ count: 0, packs: 1 });
    expect(fs.readFileSync(path.join(p.gitdir, 'packed-refs'), 'utf8')).to.contain(`${last} refs/heads/master`);
    expectFsckClean(p.gitdir);

    // Everything still reads after the packs were replaced.
    const file = await s.get(`/projects/${p.id}/repository/files/f200.txt/raw`, { token: owner.token, query: { ref: 'master' } });
    expect(file.text).to.equal('200\n');
    const commits = await s.get(`/projects/${p.id}/repository/commits`, { token: owner.token, query: { per_page: 100 } });
    expect(commits.body).to.have.length(12);
  });

  it('counts API commits as pushes too', async () => {
    const p = await project('api-written');
    for (let i = 1; i <= 10; i++) {
      const r = await s.post(`/projects/${p.id}/repository/files/n${i}.txt`, { token: owner.token, json: { branch: 'master', content: `${i}`, commit_message: `n${i}` } });
      expect(r.status, r.text).to.equal(201);
    }
    expect((await housekeepingJobs(p.id)).map((j) => j.task)).to.deep.equal(['incremental_repack']);
    await s.drainJobs();
    expect((await housekeepingJobs(p.id))[0].state).to.equal('succeeded');
  });

  it('loses no API commit to repacks and gcs running at the same time (emptied folders are made again)', async () => {
    const p = await project('repacked-while-written');
    let writing = true;
    let runs = 0;
    const housekeeper = (async () => {
      while (writing) {
        await runHousekeeping(p.gitdir, runs % 3 === 2 ? 'gc' : 'incremental_repack', false); // gc packs and prunes refs too
        runs++;
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        const nested = i % 2 === 1; // a new branch in a folder that a gc may just have emptied
        const json = nested
          ? { branch: `hk/w${i}`, start_branch: 'master', content: `${i}\n`, commit_message: `w${i}` }
          : { branch: 'master', content: `${i}\n`, commit_message: `w${i}` };
        const r = await s.post(`/projects/${p.id}/repository/files/w${i}.txt`, { token: owner.token, json });
        if (r.status !== 201) failures.push(`${i}: ${r.status} ${r.text}`);
      }
    } finally {
      writing = false;
      await housekeeper;
    }
    expect(failures).to.deep.equal([]);
    expect(runs).to.be.greaterThan(2);
    expect(bareGit(p.gitdir, ['rev-list', '--count', 'master']).trim()).to.equal('20');
    expect(bareGit(p.gitdir, ['for-each-ref', '--format=%(refname)', 'refs/heads/hk/']).trim().split('\n')).to.have.length(20);
    expectFsckClean(p.gitdir);
    await s.drainJobs();
  });

  it('serves pushes and reads while repacks and gcs run (vanished packs are looked up again)', async () => {
    const p = await project('pushed-while-repacked');
    const dir = await workRepo();
    const url = repoUrl(s, p.path, owner.token);
    await gitOk(['push', '-q', url, 'master'], { cwd: dir });
    let busy = true;
    let runs = 0;
    const housekeeper = (async () => {
      while (busy) {
        await runHousekeeping(p.gitdir, (['gc', 'full_repack', 'incremental_repack'] as const)[runs % 3], runs % 2 === 0);
        runs++;
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 1; i <= 16; i++) {
        await commit(dir, { [`p${i}.txt`]: `${i}\n` }, `push ${i}`);
        const args = ['push', '-q', url, i % 2 ? 'master' : `HEAD:refs/heads/pushed/b${i}`];
        let push = await git(args, { cwd: dir });
        // git's own race (receive-pack does not re-create a fan-out folder that prune-packed
        // removed while it moves the quarantined objects in): the push fails cleanly, nothing
        // moved, and the client pushes again. Any other failure counts.
        if (push.code !== 0 && push.stderr.includes('unable to migrate objects to permanent storage')) push = await git(args, { cwd: dir });
        if (push.code !== 0) failures.push(`push ${i}: ${push.stderr}`);
        for (const [what, r] of [
          ['raw', await s.get(`/projects/${p.id}/repository/files/p${i}.txt/raw`, { token: owner.token, query: { ref: i % 2 ? 'master' : `pushed/b${i}` } })],
          ['tree', await s.get(`/projects/${p.id}/repository/tree`, { token: owner.token, query: { ref: 'master' } })],
          ['commits', await s.get(`/projects/${p.id}/repository/commits`, { token: owner.token, query: { ref_name: 'master', per_page: 100 } })],
        ] as const) {
          if (r.status !== 200) failures.push(`${what} ${i}: ${r.status} ${r.text}`);
        }
      }
    } finally {
      busy = false;
      await housekeeper;
    }
    expect(failures).to.deep.equal([]);
    expect(runs).to.be.greaterThan(2);
    expect(bareGit(p.gitdir, ['rev-list', '--count', 'master']).trim()).to.equal('16'); // the first commit and p1..p15
    expect(bareGit(p.gitdir, ['for-each-ref', '--format=%(refname)', 'refs/heads/pushed/']).trim().split('\n')).to.have.length(8);
    expectFsckClean(p.gitdir);
    await s.drainJobs();
  });

  it('POST /projects/:id/housekeeping: 201, then 409 while it is queued or running', async () => {
    const p = await project('on-request');
    await addProjectMembers(s, p.id, [
      [dev, DEVELOPER],
      [maintainer, MASTER],
    ]);
    const dir = await workRepo();
    await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'master'], { cwd: dir });
    await s.db('projects').where({ id: p.id }).update({ pushes_since_gc: 0 });

    const started = await s.post(`/projects/${p.id}/housekeeping`, { token: maintainer.token });
    expect(started.status, started.text).to.equal(201);
    expect(started.headers.get('content-type')).to.equal('application/json');
    const jobId = Number(started.body);
    expect(jobId).to.be.greaterThan(0);
    const again = await s.post(`/projects/${p.id}/housekeeping`, { token: owner.token });
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.equal({ message: 'Somebody already triggered housekeeping for this project in the past 1440 minutes' });

    await s.drainJobs();
    const row = await s.db('jobs').where({ id: jobId }).first();
    expect(row).to.include({ state: 'succeeded', kind: 'git_garbage_collect' });
    expect(JSON.parse(row.payload).task).to.equal('gc'); // no push since the last one
    expect(fs.existsSync(path.join(p.gitdir, 'packed-refs'))).to.equal(true);
    const next = await s.post(`/projects/${p.id}/housekeeping`, { token: owner.token });
    expect(next.status).to.equal(201); // the lease ended with the job
    await s.drainJobs();
  });

  it('refuses developers (403), the signed-out (401), and hides private projects (404)', async () => {
    const p = await project('guarded');
    await addProjectMembers(s, p.id, [[dev, DEVELOPER]]);
    const stranger = await s.createUser('hk-stranger');
    const forbidden = await s.post(`/projects/${p.id}/housekeeping`, { token: dev.token });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
    const anonymous = await s.post(`/projects/${p.id}/housekeeping`, { token: null });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
    const hidden = await s.post(`/projects/${p.id}/housekeeping`, { token: stranger.token });
    expect(hidden.status).to.equal(404);
    expect(hidden.body).to.deep.equal({ message: '404 Project Not Found' });
    expect(await housekeepingJobs(p.id)).to.deep.equal([]);
  });
});
