// Project export as GitLab 10.8: POST /projects/:id/export answers 202 and queues the job; the
// status moves none → started → finished with _links; the download is GitLab's tar.gz
// (VERSION 0.2.3, project.json with the relations, project.bundle of every ref) under GitLab's
// file name; upload[url] sends it to a local HTTP server (PUT, or POST); 404 when the
// setting is off; 403 below master; 404 for a download before any export.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import * as tar from 'tar';
import { bootServer, type TestServer } from '../helpers/server.js';
import { makeRichProject, type RichProject } from '../helpers/rich_project.js';
import { tempDir } from '../transport/git_client.js';

async function download(s: TestServer, id: number, token: string): Promise<{ res: Response; file: string }> {
  const res = await fetch(new URL(`/api/v4/projects/${id}/export/download`, s.url), { headers: { 'PRIVATE-TOKEN': token } });
  const dir = tempDir('wharf-export-');
  const file = path.join(dir, 'export.tar.gz');
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { res, file };
}

describe('project export', function () {
  this.timeout(120_000);
  let s: TestServer;
  let owner: { token: string; user: { id: number } };
  let dev: { token: string; user: { id: number } };
  let p: RichProject;

  before(async () => {
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '0' });
    owner = await s.createUser('ex-owner');
    dev = await s.createUser('ex-dev');
    p = await makeRichProject(s, owner.token, 'exported', dev);
  });
  after(async () => s.close());

  it("answers none, then started, then finished with links, and downloads GitLab's archive", async () => {
    const before = await s.get(`/projects/${p.id}/export`, { token: owner.token });
    expect(before.status).to.equal(200);
    expect(before.body).to.deep.include({ id: p.id, export_status: 'none', path_with_namespace: p.path });
    expect(before.body).not.to.have.property('_links');
    const none = await s.get(`/projects/${p.id}/export/download`, { token: owner.token });
    expect(none.status).to.equal(404);
    expect(none.body).to.deep.equal({ message: '404 Not found or has expired' });

    const start = await s.post(`/projects/${p.id}/export`, { token: owner.token, json: { description: 'exported description' } });
    expect(start.status, start.text).to.equal(202);
    expect(start.body).to.deep.equal({ message: '202 Accepted' });
    expect((await s.get(`/projects/${p.id}/export`, { token: owner.token })).body.export_status).to.equal('started');
    await s.drainJobs();
    const done = await s.get(`/projects/${p.id}/export`, { token: owner.token });
    expect(done.body.export_status).to.equal('finished');
    expect(done.body._links).to.deep.equal({ api_url: `${s.url}/api/v4/projects/${p.id}/export/download`, web_url: `${s.url}/${p.path}/download_export` });
    expect(Object.keys(done.body).sort()).to.deep.equal(
      ['_links', 'created_at', 'description', 'export_status', 'id', 'name', 'name_with_namespace', 'path', 'path_with_namespace'].sort(),
    );

    const { res, file } = await download(s, p.id, owner.token);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/gzip');
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename=\d{4}-\d\d-\d\d_\d\d-\d\d-\d{3}_ex-owner_exported_export\.tar\.gz$/);
    expect(res.headers.get('content-transfer-encoding')).to.equal('binary');
    const names: string[] = [];
    await tar.t({ file, onReadEntry: (e) => names.push(e.path) });
    expect(names.sort()).to.deep.equal(['./', './VERSION', './project.bundle', './project.json']);
    const out = path.dirname(file);
    await tar.x({ file, cwd: out });
    expect(fs.readFileSync(path.join(out, 'VERSION'), 'utf8')).to.equal('0.2.3');
    const tree = JSON.parse(fs.readFileSync(path.join(out, 'project.json'), 'utf8'));
    expect(tree.description).to.equal('exported description');
    expect(tree.labels.map((l: any) => l.title)).to.deep.equal(['bug', 'feature']);
    expect(tree.milestones.map((m: any) => [m.iid, m.title, m.state])).to.deep.equal([
      [1, 'v1', 'active'],
      [2, 'v2', 'closed'],
    ]);
    expect(tree.issues.map((i: any) => [i.iid, i.title, i.state, i.confidential])).to.deep.equal([
      [1, 'first issue', 'opened', false],
      [2, 'second issue', 'closed', true],
    ]);
    expect(tree.issues[0].notes.map((n: any) => [n.note, n.author.name])).to.deep.include(['a first note', 'Ex-owner']);
    expect(tree.issues[0].label_links.map((l: any) => l.label.title)).to.deep.equal(['bug']);
    expect(tree.issues[0].milestone.title).to.equal('v1');
    expect(tree.issues[0].issue_assignees).to.deep.equal([{ user_id: dev.user.id, issue_id: tree.issues[0].id }]);
    expect(tree.merge_requests.map((m: any) => [m.iid, m.source_branch, m.target_branch, m.state])).to.deep.equal([[1, 'feature', 'master', 'opened']]);
    expect(tree.merge_requests[0].notes.map((n: any) => n.note)).to.include('looks good');
    expect(tree.merge_requests[0].label_links.map((l: any) => l.label.title)).to.deep.equal(['feature']);
    // The merge request's diff as GitLab stored it: its commits (as git log lists them) and files.
    const diff = tree.merge_requests[0].merge_request_diff;
    const logged = execFileSync('git', ['--git-dir', p.gitdir, 'log', '--format=%H', 'master..feature']).toString().trim().split('\n');
    expect(diff.merge_request_diff_commits.map((c: any) => c.sha)).to.deep.equal(logged);
    expect(diff.merge_request_diff_commits[0]).to.include({ message: 'feature work\n', relative_order: 0 });
    expect(diff.merge_request_diff_files.map((f: any) => [f.new_path, f.new_file, f.deleted_file])).to.deep.equal([['src/b.txt', true, false]]);
    expect(diff.merge_request_diff_files[0].utf8_diff).to.include('+b');
    expect(tree.snippets.map((sn: any) => [sn.title, sn.file_name, sn.award_emoji.map((a: any) => a.name), sn.notes.map((n: any) => n.note)])).to.deep.equal([
      ['a snippet', 'hello.sh', ['heart'], ['nice snippet']],
    ]);
    expect(tree.issues[0].award_emoji.map((a: any) => [a.name, a.awardable_type])).to.deep.equal([['rocket', 'Issue']]);
    // Pipelines nested as 10.8 nests them: stages in order (status as Ci::Stage's enum: 1 pending), their jobs under them.
    const pipeline = tree.pipelines.find((pl: any) => pl.ref === 'master');
    expect(pipeline).to.include({ ref: 'master', status: 'pending' });
    expect(pipeline.stages.map((st: any) => [st.name, st.status, st.statuses.map((j: any) => [j.name, j.type, j.trace])])).to.deep.equal([
      ['build', 1, [['build', 'Ci::Build', null]]],
      ['test', 0, [['test', 'Ci::Build', null]]],
    ]);
    expect(tree.project_members.map((m: any) => [m.user.username, m.user.email, m.access_level])).to.deep.include.members([['ex-dev', 'ex-dev@example.com', 30]]);
    expect(tree.protected_branches.map((b: any) => [b.name, b.push_access_levels[0].access_level, b.merge_access_levels[0].access_level])).to.deep.include(['release-*', 30, 40]);
    expect(tree.project_feature).to.include({ issues_access_level: 20, merge_requests_access_level: 20 });

    // The bundle is a real one, with every ref of the repository.
    execFileSync('git', ['init', '-q', '--bare', path.join(out, 'check.git')]);
    execFileSync('git', ['--git-dir', path.join(out, 'check.git'), 'bundle', 'verify', path.join(out, 'project.bundle')], { stdio: 'pipe' });
    const heads = execFileSync('git', ['bundle', 'list-heads', path.join(out, 'project.bundle')]).toString();
    const refs = execFileSync('git', ['--git-dir', p.gitdir, 'for-each-ref', '--format=%(objectname) %(refname)']).toString().trim().split('\n');
    for (const line of refs) expect(heads).to.include(line);
    expect(heads).to.include('refs/tags/v1.0');
  });

  it('uploads the finished archive to upload[url] with PUT by default, or POST, going through after_export_action', async () => {
    const received: { method: string; type: string; size: number }[] = [];
    let statusDuring = '';
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', async () => {
        statusDuring = (await s.get(`/projects/${p.id}/export`, { token: owner.token })).body.export_status;
        received.push({ method: req.method ?? '', type: String(req.headers['content-type']), size: Buffer.concat(chunks).length });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/upload`;
    const allowLocal = (on: boolean) => s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: on } });
    try {
      // A local receiver is refused while local requests are not allowed: nothing is sent.
      expect((await s.post(`/projects/${p.id}/export`, { token: owner.token, form: { 'upload[url]': url } })).status).to.equal(202);
      await s.drainJobs();
      expect(received).to.deep.equal([]);
      const refused = (await s.get(`/projects/${p.id}/export`, { token: owner.token })).body;
      expect(refused.export_status).to.equal('finished');
      expect(received).to.have.length(0);

      expect((await allowLocal(true)).status).to.equal(200);
      expect((await s.post(`/projects/${p.id}/export`, { token: owner.token, form: { 'upload[url]': url } })).status).to.equal(202);
      await s.drainJobs();
      expect((await s.post(`/projects/${p.id}/export`, { token: owner.token, json: { upload: { url, http_method: 'POST' } } })).status).to.equal(202);
      await s.drainJobs();
    } finally {
      await allowLocal(false);
      server.close();
    }
    const file = (await download(s, p.id, owner.token)).file;
    expect(received.map((r) => r.method)).to.deep.equal(['PUT', 'POST']);
    expect(received[1]).to.deep.equal({ method: 'POST', type: 'application/gzip', size: fs.statSync(file).size });
    expect(statusDuring).to.equal('after_export_action');
    expect((await s.get(`/projects/${p.id}/export`, { token: owner.token })).body.export_status).to.equal('finished');
  });

  it("refuses a bad upload method or URL with GitLab's validation errors", async () => {
    const r = await s.post(`/projects/${p.id}/export`, { token: owner.token, json: { upload: { url: 'ftp://example.com/x', http_method: 'GET' } } });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ message: { url: ['is blocked: Only allowed protocols are http, https'], http_method: ['invalid. Only PUT and POST methods allowed.'] } });
  });

  it('is 403 below master and 404 to a stranger', async () => {
    for (const path of [`/projects/${p.id}/export`, `/projects/${p.id}/export/download`]) {
      const r = await s.get(path, { token: dev.token });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
    }
    const post = await s.post(`/projects/${p.id}/export`, { token: dev.token });
    expect(post.status).to.equal(403);
    const stranger = await s.createUser('ex-stranger');
    const priv = await s.post('/projects', { token: owner.token, json: { name: 'hidden', visibility: 'private' } });
    const r = await s.get(`/projects/${priv.body.id}/export`, { token: stranger.token });
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
  });

  it('is 404 for all three while project_export_enabled is off', async () => {
    const off = await s.put('/application/settings', { json: { project_export_enabled: false } });
    expect(off.status, off.text).to.equal(200);
    try {
      for (const [method, path] of [
        ['GET', `/projects/${p.id}/export`],
        ['GET', `/projects/${p.id}/export/download`],
        ['POST', `/projects/${p.id}/export`],
      ]) {
        const r = await s.request(method, path, { token: owner.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 Not Found' });
      }
      expect(Number((await s.db('jobs').where({ kind: 'project_export', state: 'queued' }).count({ n: '*' }).first())?.n)).to.equal(0);
    } finally {
      await s.put('/application/settings', { json: { project_export_enabled: true } });
    }
  });

  it('exports an empty project without a bundle', async () => {
    const e = await s.post('/projects', { token: owner.token, json: { name: 'empty' } });
    expect((await s.post(`/projects/${e.body.id}/export`, { token: owner.token })).status).to.equal(202);
    await s.drainJobs();
    const { file } = await download(s, e.body.id, owner.token);
    const names: string[] = [];
    await tar.t({ file, onReadEntry: (en) => names.push(en.path) });
    expect(names.sort()).to.deep.equal(['./', './VERSION', './project.json']);
  });
});
