// Project import as GitLab 10.8: a Wharf export comes back whole under a new path (issues,
// notes, merge requests, labels, milestones, members, protected branches, iids, states,
// timestamps, every git ref); GitLab's own fixture archive (gitlab-ce v10.8.7
// spec/features/projects/import_export/test_project_export.tar.gz) imports with its issues,
// merge requests, milestones and repository; authors are mapped by email (else the importer),
// and notes carry GitLab's "*By … on …*" note; every bad archive ends
// `failed` with a clear import_error, its repository still the empty one made at the start,
// no relation rows, and nothing written outside the import's temp folder.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import * as tar from 'tar';
import { bootServer, type TestServer } from '../helpers/server.js';
import { makeRichProject, type RichProject } from '../helpers/rich_project.js';
import { entriesOf, importAndWait, importArchive, tarGz, type Entry } from '../helpers/archives.js';
import { tempDir } from '../transport/git_client.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(here, '../../../test/fixtures/import_export/test_project_export.tar.gz');

/** A 1×1 PNG. */
const AVATAR = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const refsOf = (gitdir: string) => execFileSync('git', ['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname) %(refname)']).toString().trim();

describe('project import', function () {
  this.timeout(180_000);
  let s: TestServer;
  let owner: { token: string; user: { id: number } };
  let dev: { token: string; user: { id: number } };
  let source: RichProject;
  let exported: Buffer;
  let unpacked: string;

  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '0' });
    owner = await s.createUser('im-owner');
    dev = await s.createUser('im-dev');
    source = await makeRichProject(s, owner.token, 'source', dev);
    const form = new FormData();
    form.append('description', 'the original description');
    form.append('avatar', new Blob([new Uint8Array(AVATAR)], { type: 'image/png' }), 'logo.png');
    const avatar = await fetch(new URL(`/api/v4/projects/${source.id}`, s.url), { method: 'PUT', headers: { 'PRIVATE-TOKEN': owner.token }, body: form });
    expect(avatar.status).to.equal(200);
    expect((await s.post(`/projects/${source.id}/export`, { token: owner.token })).status).to.equal(202);
    await s.drainJobs();
    const res = await fetch(new URL(`/api/v4/projects/${source.id}/export/download`, s.url), { headers: { 'PRIVATE-TOKEN': owner.token } });
    exported = Buffer.from(await res.arrayBuffer());
    unpacked = tempDir('wharf-unpacked-');
    fs.writeFileSync(path.join(unpacked, '..', `${path.basename(unpacked)}.tar.gz`), exported);
    await tar.x({ file: path.join(unpacked, '..', `${path.basename(unpacked)}.tar.gz`), cwd: unpacked });
  });
  after(async () => s.close());

  async function list(p: string, token = owner.token) {
    const r = await s.get(p, { token, query: { per_page: 100 } });
    expect(r.status, r.text).to.equal(200);
    return r.body;
  }

  it('round-trips a Wharf export under a new path: everything exported comes back', async () => {
    const st = await importAndWait(s, owner.token, exported, { path: 'copy', namespace: 'im-owner' });
    expect(st.import_status, JSON.stringify(st)).to.equal('finished');
    expect(st).not.to.have.property('import_error');
    const copy = (await s.get(`/projects/${encodeURIComponent('im-owner/copy')}`, { token: owner.token })).body;
    const pick = (xs: any[], keys: string[]) =>
      xs.map((x) => Object.fromEntries(keys.map((k) => [k, x[k]]))).sort((a, b) => a.iid - b.iid || String(a.name).localeCompare(String(b.name)));
    const issueKeys = ['iid', 'title', 'description', 'state', 'confidential', 'labels', 'created_at', 'closed_at', 'user_notes_count'];
    expect(pick(await list(`/projects/${copy.id}/issues`), issueKeys)).to.deep.equal(pick(await list(`/projects/${source.id}/issues`), issueKeys));
    const a = await list(`/projects/${copy.id}/issues`);
    expect(a.find((i: any) => i.iid === 1).milestone.title).to.equal('v1');
    expect(a.find((i: any) => i.iid === 1).assignees.map((u: any) => u.username)).to.deep.equal(['im-dev']);
    const mrKeys = ['iid', 'title', 'state', 'source_branch', 'target_branch', 'labels', 'created_at', 'sha'];
    expect(pick(await list(`/projects/${copy.id}/merge_requests`), mrKeys)).to.deep.equal(pick(await list(`/projects/${source.id}/merge_requests`), mrKeys));
    expect(pick(await list(`/projects/${copy.id}/labels`), ['name', 'color', 'description'])).to.deep.equal(
      pick(await list(`/projects/${source.id}/labels`), ['name', 'color', 'description']),
    );
    expect(pick(await list(`/projects/${copy.id}/milestones`), ['iid', 'title', 'state', 'due_date'])).to.deep.equal(
      pick(await list(`/projects/${source.id}/milestones`), ['iid', 'title', 'state', 'due_date']),
    );
    const notes = (await list(`/projects/${copy.id}/issues/1/notes`)).filter((n: any) => !n.system).map((n: any) => n.body);
    expect(notes).to.have.length(1);
    expect(notes[0]).to.match(/^a first note\n\n \*By Im-owner on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(imported from GitLab project\)\*$/);
    expect((await list(`/projects/${copy.id}/members`)).map((m: any) => [m.username, m.access_level]).sort()).to.deep.equal([
      ['im-dev', 30],
      ['im-owner', 40],
    ]);
    expect((await list(`/projects/${copy.id}/protected_branches`)).map((b: any) => b.name)).to.include('release-*');
    expect(copy.default_branch).to.equal('master');
    expect(copy.description).to.equal('the original description');
    expect(refsOf(s.deps.repos.pathFor('im-owner/copy'))).to.equal(refsOf(source.gitdir));
    execFileSync('git', ['--git-dir', s.deps.repos.pathFor('im-owner/copy'), 'fsck', '--no-dangling'], { stdio: 'pipe' });
    // Snippets with their notes, and award emoji on issues, merge requests, notes and snippets.
    const snippetKeys = ['title', 'file_name', 'description', 'visibility'];
    const [copied] = await list(`/projects/${copy.id}/snippets`);
    const [original] = await list(`/projects/${source.id}/snippets`);
    expect(pick([copied], snippetKeys)).to.deep.equal(pick([original], snippetKeys));
    expect((await s.get(`/projects/${copy.id}/snippets/${copied.id}/raw`, { token: owner.token })).text).to.equal('echo hello\n');
    expect((await list(`/projects/${copy.id}/snippets/${copied.id}/notes`)).map((n: any) => n.body.split('\n')[0])).to.deep.equal(['nice snippet']);
    const names = async (p: string) => (await list(p)).map((a: any) => `${a.name}:${a.user.username}`);
    expect(await names(`/projects/${copy.id}/issues/1/award_emoji`)).to.deep.equal(['rocket:im-owner']);
    expect(await names(`/projects/${copy.id}/merge_requests/1/award_emoji`)).to.deep.equal(['tada:im-owner']);
    expect(await names(`/projects/${copy.id}/snippets/${copied.id}/award_emoji`)).to.deep.equal(['heart:im-owner']);
    const [copiedNote] = (await list(`/projects/${copy.id}/issues/1/notes`)).filter((n: any) => !n.system);
    expect(await names(`/projects/${copy.id}/issues/1/notes/${copiedNote.id}/award_emoji`)).to.deep.equal(['smile:im-owner']);
    // Pipelines with their jobs: what was waiting comes back canceled (nothing runs it here).
    const pipelinesOf = async (id: number) => (await list(`/projects/${id}/pipelines`)).map((p: any) => [p.ref, p.sha]);
    const originals = await pipelinesOf(source.id);
    expect(originals.length).to.be.greaterThan(0);
    expect(await pipelinesOf(copy.id)).to.deep.equal(originals);
    const [copiedPipeline] = await list(`/projects/${copy.id}/pipelines`);
    expect(copiedPipeline.status).to.equal('canceled');
    const jobs = await list(`/projects/${copy.id}/pipelines/${copiedPipeline.id}/jobs`);
    expect(jobs.map((j: any) => [j.name, j.stage, j.status]).sort()).to.deep.equal([
      ['build', 'build', 'canceled'],
      ['test', 'test', 'canceled'],
    ]);
    // The avatar, as GitLab keeps it in the archive's avatar/ folder.
    expect(copy.avatar_url).to.equal(`${s.url}/uploads/-/system/project/avatar/${copy.id}/logo.png`);
    const image = Buffer.from(await (await fetch(copy.avatar_url, { headers: { 'PRIVATE-TOKEN': owner.token } })).arrayBuffer());
    expect(image.equals(AVATAR)).to.equal(true);
    // New iids continue after the imported ones.
    const next = await s.post(`/projects/${copy.id}/issues`, { token: owner.token, json: { title: 'after import' } });
    expect(next.body.iid).to.equal(3);
  });

  it('maps authors to existing users by email when an admin imports, and writes no author note for an admin importer', async () => {
    const admin = await s.createUser('im-admin', { admin: true });
    const st = await importAndWait(s, admin.token, exported, { path: 'admin-copy' });
    expect(st.import_status).to.equal('finished');
    const issues = await list(`/projects/${st.id}/issues`, admin.token);
    // im-owner is a member of the exported project and exists here: found by email, not the importer.
    expect(issues.map((i: any) => i.author.username)).to.deep.equal(['im-owner', 'im-owner']);
    const notes = (await list(`/projects/${st.id}/issues/1/notes`, admin.token)).filter((n: any) => !n.system);
    expect(notes.map((n: any) => [n.body, n.author.username])).to.deep.equal([['a first note', 'im-owner']]);
    // im-dev is a member of the exported project, found by email: their assignment is kept.
    expect(issues.find((i: any) => i.iid === 1).assignees.map((u: any) => u.username)).to.deep.equal(['im-dev']);
  });

  it("imports GitLab 10.8's own fixture archive with its issues, merge requests, milestones and repository", async () => {
    const admin = await s.createUser('im-admin2', { admin: true });
    const st = await importAndWait(s, admin.token, fs.readFileSync(FIXTURE), { path: 'gitlab-fixture' });
    expect(st.import_status, JSON.stringify(st)).to.equal('finished');
    const issues = await list(`/projects/${st.id}/issues`, admin.token);
    expect(issues.map((i: any) => i.iid).sort((a: number, b: number) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(issues.find((i: any) => i.iid === 1).title).to.equal('Sequi dolor voluptatem libero distinctio sed consequatur recusandae officia aut.');
    expect(issues.find((i: any) => i.iid === 1).created_at).to.equal('2016-10-18T16:45:41.575Z');
    const mrs = await list(`/projects/${st.id}/merge_requests`, admin.token);
    expect(mrs).to.have.length(9);
    expect((await list(`/projects/${st.id}/milestones`, admin.token)).length).to.equal(5);
    const branches = await list(`/projects/${st.id}/repository/branches`, admin.token);
    expect(branches.map((b: any) => b.name)).to.include.members(['master', 'test-3', 'test-9']);
    const commits = await list(`/projects/${st.id}/repository/commits`, admin.token);
    expect(commits.length).to.be.greaterThan(0);
  });

  describe('bad archives', () => {
    const base = () => entriesOf(unpacked);
    const withEntries = (extra: Entry[], drop: string[] = []) => tarGz([...base().filter((e) => !drop.includes(e.name)), ...extra]);
    let n = 0;

    async function expectFailed(archive: Buffer, error: string | RegExp) {
      n += 1;
      const st = await importAndWait(s, owner.token, archive, { path: `bad-${n}` });
      expect(st.import_status).to.equal('failed');
      if (typeof error === 'string') expect(st.import_error).to.equal(error);
      else expect(st.import_error).to.match(error);
      // Nothing half-imported: the project's repository is still empty, no relation rows.
      const gitdir = s.deps.repos.pathFor(`im-owner/bad-${n}`);
      expect(refsOf(gitdir)).to.equal('');
      for (const table of ['issues', 'milestones', 'labels']) {
        expect(Number((await s.db(table).where({ project_id: st.id }).count({ c: '*' }).first())?.c)).to.equal(0, table);
      }
      expect(Number((await s.db('merge_requests').where({ target_project_id: st.id }).count({ c: '*' }).first())?.c)).to.equal(0);
      return st;
    }

    it('refuses ../ and absolute paths, writing nothing outside', async () => {
      const outside = path.join(s.deps.repos.tmpDir, 'escaped.txt');
      await expectFailed(withEntries([{ name: '../../escaped.txt', body: 'x' }]), 'The archive holds a path outside its folder: "../../escaped.txt"');
      await expectFailed(withEntries([{ name: '/tmp/wharf-absolute.txt', body: 'x' }]), 'The archive holds a path outside its folder: "/tmp/wharf-absolute.txt"');
      expect(fs.existsSync(outside)).to.equal(false);
      expect(fs.existsSync('/tmp/wharf-absolute.txt')).to.equal(false);
    });

    it('refuses symbolic and hard links', async () => {
      await expectFailed(withEntries([{ name: 'evil', type: 'SymbolicLink', linkpath: '/etc/passwd' }]), 'The archive holds a symbolic link: "evil"');
      await expectFailed(withEntries([{ name: 'hard', type: 'Link', linkpath: '../../x' }]), 'The archive holds a hard link: "hard"');
      await expectFailed(
        tarGz([
          { name: 'project.json', type: 'SymbolicLink', linkpath: '/etc/passwd' },
          { name: 'VERSION', body: '0.2.3' },
        ]),
        'The archive holds a symbolic link: "project.json"',
      );
    });

    it('bounds the number of files (a decompression bomb of tiny files)', async () => {
      const many: Entry[] = [];
      for (let i = 0; i < 10_001; i++) many.push({ name: `f${i}`, body: '' });
      await expectFailed(withEntries(many), 'The archive holds more than 10000 files');
    });

    it('reads the 0.2.x versions GitLab 10.x wrote (10.4–10.7: 0.2.2), not 0.2.4', async () => {
      for (const version of ['0.2.2', '0.2.0']) {
        const st = await importAndWait(s, owner.token, withEntries([{ name: 'VERSION', body: version }], ['VERSION']), { path: `v${version.replace(/\./g, '-')}` });
        expect(st.import_status, `${version}: ${JSON.stringify(st)}`).to.equal('finished');
      }
      await expectFailed(withEntries([{ name: 'VERSION', body: '0.2.4' }], ['VERSION']), 'Import version mismatch: Required 0.2.3 but was 0.2.4');
    });

    it("answers GitLab's messages for a version mismatch and an unreadable VERSION", async () => {
      await expectFailed(withEntries([{ name: 'VERSION', body: '0.1.8' }], ['VERSION']), 'Import version mismatch: Required 0.2.3 but was 0.1.8');
      await expectFailed(withEntries([{ name: 'VERSION', body: 'not a version' }], ['VERSION']), 'Incorrect VERSION format');
      await expectFailed(withEntries([], ['VERSION']), 'Incorrect VERSION format');
    });

    it('refuses a project.json of the wrong shape or not JSON', async () => {
      await expectFailed(withEntries([{ name: 'project.json', body: '[1,2]' }], ['project.json']), 'project.json is not an object');
      await expectFailed(withEntries([{ name: 'project.json', body: '{"issues": "many"}' }], ['project.json']), 'project.json: issues is not a list of objects');
      await expectFailed(withEntries([{ name: 'project.json', body: '{"issues": [' }], ['project.json']), 'project.json is not valid JSON');
      await expectFailed(withEntries([], ['project.json']), 'The archive has no project.json');
    });

    it('refuses a corrupt bundle and a bundle with a dangerous ref name', async () => {
      const bundle = fs.readFileSync(path.join(unpacked, 'project.bundle'));
      const corrupt = Buffer.from(bundle);
      corrupt.fill(0x41, corrupt.length - 200, corrupt.length - 20);
      await expectFailed(withEntries([{ name: 'project.bundle', body: corrupt }], ['project.bundle']), /^The repository (bundle is not valid|could not be restored)/);
      const headerEnd = bundle.indexOf('\n\n') + 2;
      const lines = bundle.subarray(0, headerEnd).toString().split('\n');
      const oid = lines[1].split(' ')[0];
      const evil = Buffer.concat([Buffer.from(`${lines[0]}\n${oid} refs/heads/a..b\n${lines.slice(1).join('\n')}`), bundle.subarray(headerEnd)]);
      await expectFailed(withEntries([{ name: 'project.bundle', body: evil }], ['project.bundle']), /ref|bundle/);
    });
  });

  it('shows started while the import runs, then finished (the stored archive made a pipe the test feeds)', async () => {
    const r = await importArchive(s, owner.token, exported, { path: 'watched' });
    expect(r.status).to.equal(201);
    const stored = path.join(s.deps.repos.root, '@wharf', 'imports', `${r.body.id}.tar.gz`);
    fs.rmSync(stored);
    execFileSync('mkfifo', [stored]);
    const draining = s.drainJobs();
    const status = async () => (await s.get(`/projects/${r.body.id}/import`, { token: owner.token })).body.import_status;
    let seen = await status();
    while (seen === 'scheduled') seen = await status();
    // The job is now reading the archive, which it cannot finish before the test writes it.
    expect(seen).to.equal('started');
    expect((await s.get(`/projects/${r.body.id}`, { token: owner.token })).body.import_status).to.equal('started');
    // Written from libuv's thread pool: opening a FIFO blocks until its reader opens it, which
    // the import job (on this very event loop) could never do behind a synchronous open.
    await fs.promises.writeFile(stored, exported);
    await draining;
    expect(await status()).to.equal('finished');
  });

  describe("overwrite=true (GitLab 10.8: import under path-<hex>, then take the old project's place)", () => {
    it('replaces the project at the path once the import finished: its stars, members and forks move over, its name and path are taken, it is gone', async () => {
      const target = await s.post('/projects', { token: owner.token, json: { name: 'Replaced Name', path: 'replaced' } });
      expect(target.status).to.equal(201);
      const watcher = await s.createUser('im-watcher');
      expect((await s.post(`/projects/${target.body.id}/members`, { token: owner.token, json: { user_id: watcher.user.id, access_level: 20 } })).status).to.equal(201);
      expect((await s.post(`/projects/${target.body.id}/star`, { token: watcher.token })).status).to.equal(201);
      const fork = await s.post(`/projects/${target.body.id}/fork`, { token: watcher.token });
      expect(fork.status).to.equal(201);

      const r = await importArchive(s, owner.token, exported, { path: 'replaced', overwrite: 'true' });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      expect(r.body.path).to.match(/^replaced-[0-9a-f]{32}$/);
      expect(r.body.import_status).to.equal('scheduled');
      // Until the import finished, the old project is where it was.
      expect((await s.get(`/projects/${target.body.id}`, { token: owner.token })).status).to.equal(200);
      await s.drainJobs();
      const st = (await s.get(`/projects/${r.body.id}/import`, { token: owner.token })).body;
      expect(st.import_status, JSON.stringify(st)).to.equal('finished');

      const now = (await s.get(`/projects/${encodeURIComponent('im-owner/replaced')}`, { token: owner.token })).body;
      expect(now.id).to.equal(r.body.id);
      expect(now.name).to.equal('Replaced Name');
      expect(now.path).to.equal('replaced');
      expect(now.star_count).to.equal(1);
      expect((await s.get(`/projects/${target.body.id}`, { token: owner.token })).status).to.equal(404);
      expect((await list(`/projects/${now.id}/issues`)).length).to.equal((await list(`/projects/${source.id}/issues`)).length);
      expect((await list(`/projects/${now.id}/members`)).map((m: any) => m.username)).to.include('im-watcher');
      expect((await s.get(`/projects/${fork.body.id}`, { token: watcher.token })).body.forked_from_project.id).to.equal(now.id);
      expect(refsOf(s.deps.repos.pathFor('im-owner/replaced'))).to.equal(refsOf(source.gitdir));
      expect(fs.existsSync(s.deps.repos.pathFor(r.body.path_with_namespace))).to.equal(false);
    });

    it('imports under the path itself when no project has it, and leaves the old project alone when the import fails', async () => {
      const fresh = await importAndWait(s, owner.token, exported, { path: 'fresh-path', overwrite: 'true' });
      expect(fresh.import_status).to.equal('finished');
      expect((await s.get(`/projects/${encodeURIComponent('im-owner/fresh-path')}`, { token: owner.token })).status).to.equal(200);

      const kept = await s.post('/projects', { token: owner.token, json: { path: 'kept' } });
      const broken = tarGz([{ name: 'VERSION', body: '0.1.0' }]);
      const r = await importArchive(s, owner.token, broken, { path: 'kept', overwrite: 'true' });
      expect(r.status).to.equal(201);
      await s.drainJobs();
      const st = (await s.get(`/projects/${r.body.id}/import`, { token: owner.token })).body;
      expect(st.import_status).to.equal('failed');
      const still = (await s.get(`/projects/${encodeURIComponent('im-owner/kept')}`, { token: owner.token })).body;
      expect(still.id).to.equal(kept.body.id);
    });

    it("does not replace a group's project for a member who does not own the group", async () => {
      const group = await s.post('/groups', { token: owner.token, json: { name: 'im-group', path: 'im-group' } });
      expect(group.status).to.equal(201);
      expect((await s.post(`/groups/${group.body.id}/members`, { token: owner.token, json: { user_id: dev.user.id, access_level: 40 } })).status).to.equal(201);
      const theirs = await s.post('/projects', { token: owner.token, json: { path: 'guarded', namespace_id: group.body.id } });
      expect(theirs.status).to.equal(201);
      const r = await importArchive(s, dev.token, exported, { path: 'guarded', namespace: 'im-group', overwrite: 'true' });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      await s.drainJobs();
      const st = (await s.get(`/projects/${r.body.id}/import`, { token: dev.token })).body;
      expect(st.import_status).to.equal('failed');
      expect(st.import_error).to.include('may not overwrite');
      expect((await s.get(`/projects/${encodeURIComponent('im-group/guarded')}`, { token: owner.token })).body.id).to.equal(theirs.body.id);
    });
  });

  it('refuses an existing path without overwrite, a missing file, an unknown namespace, and is 403 without the import source', async () => {
    const taken = await importArchive(s, owner.token, exported, { path: 'source' });
    expect(taken.status).to.equal(400);
    expect(taken.body).to.deep.equal({ message: 'Name has already been taken' });
    const form = new FormData();
    form.append('path', 'nofile');
    const res = await fetch(new URL('/api/v4/projects/import', s.url), { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token }, body: form });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ error: 'file is missing' });
    form.append('file', 'not a file');
    const text = await fetch(new URL('/api/v4/projects/import', s.url), { method: 'POST', headers: { 'PRIVATE-TOKEN': owner.token }, body: form });
    expect(text.status).to.equal(400);
    expect(await text.json()).to.deep.equal({ error: 'file is invalid' });
    const ns = await importArchive(s, owner.token, exported, { path: 'x', namespace: 'no-such-namespace' });
    expect(ns.status).to.equal(404);
    expect(ns.body).to.deep.equal({ message: '404 Namespace Not Found' });
    const missingPath = await importArchive(s, owner.token, exported, {});
    expect(missingPath.status).to.equal(400);
    expect(missingPath.body).to.deep.equal({ error: 'path is missing' });
    expect((await s.put('/application/settings', { json: { import_sources: ['github'] } })).status).to.equal(200);
    try {
      const forbidden = await importArchive(s, owner.token, exported, { path: 'y' });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
    } finally {
      await s.put('/application/settings', { json: { import_sources: ['gitlab_project', 'github'] } });
    }
    expect((await s.get(`/projects/${encodeURIComponent('im-owner/y')}`, { token: owner.token })).status).to.equal(404);
  });
});
