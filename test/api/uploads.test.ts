// POST /projects/:id/uploads and the files it answers with (GitLab 10.8's UploadService and
// Projects::UploadsController): the `{alt, url, markdown}` answer, sanitized names, the file
// served at `/<namespace>/<project>/uploads/<secret>/<filename>` to readers only (inline for
// images, an attachment otherwise), Grape's 400s, the `max_attachment_size` limit, one stored
// copy per content, and export/import carrying `uploads/`.
import { expect } from 'chai';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { importAndWait } from '../helpers/archives.js';
import { insertMember } from '../../src/services/members/members.js';
import { GUEST } from '../../src/policy/levels.js';
import { enqueueJob } from '../../src/store/job_queue.js';
import { REMOVE_UNREFERENCED_UPLOADS } from '../../src/jobs/uploads_unreferenced.js';

describe('project uploads', function () {
  this.timeout(60_000);
  let s: TestServer;
  let owner: { token: string; user: any };
  let guest: { token: string; user: any };
  let stranger: { token: string; user: any };
  let secret: any;
  let open: any;

  async function upload(projectId: number, token: string | null, name: string, content: string | Buffer) {
    const form = new FormData();
    form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
    const res = await fetch(`${s.url}/api/v4/projects/${projectId}/uploads`, { method: 'POST', headers: token ? { 'PRIVATE-TOKEN': token } : {}, body: form });
    return { status: res.status, body: await res.json() };
  }
  const served = (project: any, url: string, token?: string) => fetch(`${s.url}/${project.path_with_namespace}${url}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('olga');
    guest = await s.createUser('gus');
    stranger = await s.createUser('stan');
    secret = (await s.post('/projects', { token: owner.token, json: { name: 'secret', visibility: 'private' } })).body;
    open = (await s.post('/projects', { token: owner.token, json: { name: 'open', visibility: 'public' } })).body;
    await insertMember(s.db, { sourceType: 'project', sourceId: secret.id, userId: guest.user.id, accessLevel: GUEST });
  });
  after(() => s.close());

  it('answers the alt text, URL and Markdown, and serves the file to readers only', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const r = await upload(secret.id, owner.token, 'my logo (1).png', png);
    expect(r.status).to.equal(201);
    expect(r.body).to.have.all.keys('alt', 'url', 'markdown');
    expect(r.body.alt).to.equal('my_logo__1_');
    expect(r.body.url).to.match(/^\/uploads\/[0-9a-f]{32}\/my_logo__1_\.png$/);
    expect(r.body.markdown).to.equal(`![my_logo__1_](${r.body.url})`);
    const got = await served(secret, r.body.url, guest.token);
    expect(got.status).to.equal(200);
    expect(got.headers.get('content-type')).to.equal('image/png');
    expect(got.headers.get('content-disposition')).to.match(/^inline; filename="my_logo__1_.png"/);
    expect(Buffer.from(await got.arrayBuffer())).to.deep.equal(png);
    for (const token of [undefined, stranger.token]) {
      const hidden = await served(secret, r.body.url, token);
      expect(hidden.status).to.equal(404);
    }
    const wrong = await served(secret, r.body.url.replace(/[0-9a-f]{32}/, 'f'.repeat(32)), owner.token);
    expect(wrong.status).to.equal(404);
  });

  it('sends what is no image as an attachment, with nosniff, and serves a public project to anyone', async () => {
    const r = await upload(open.id, guest.token, 'page.html', '<script>alert(1)</script>');
    expect(r.status).to.equal(201);
    expect(r.body.markdown).to.equal(`[page.html](${r.body.url})`);
    const got = await served(open, r.body.url);
    expect(got.status).to.equal(200);
    expect(got.headers.get('content-disposition')).to.match(/^attachment; filename="page.html"/);
    expect(got.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it("refuses anonymous uploads, strangers, no file and files over max_attachment_size, with Grape's bodies", async () => {
    expect(await upload(open.id, null, 'a.txt', 'a')).to.deep.equal({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await upload(secret.id, stranger.token, 'a.txt', 'a')).to.deep.equal({ status: 404, body: { message: '404 Project Not Found' } });
    const none = await s.post(`/projects/${secret.id}/uploads`, { token: owner.token, json: {} });
    expect(none.status).to.equal(400);
    expect(none.body).to.deep.equal({ error: 'file is missing' });
    const text = await s.post(`/projects/${secret.id}/uploads`, { token: owner.token, json: { file: 'not a file' } });
    expect(text.status).to.equal(400);
    expect(text.body).to.deep.equal({ error: 'file is invalid' });
    expect((await s.put('/application/settings', { token: ROOT_TOKEN, json: { max_attachment_size: 1 } })).status).to.equal(200);
    const big = await upload(secret.id, owner.token, 'big.bin', crypto.randomBytes(1024 * 1024 + 1));
    expect(big).to.deep.equal({ status: 413, body: { message: 'File is too big (maximum is 1 MB)' } });
    expect((await s.put('/application/settings', { token: ROOT_TOKEN, json: { max_attachment_size: 10 } })).status).to.equal(200);
  });

  it('stores one copy of a content uploaded twice, under two secrets', async () => {
    const a = await upload(secret.id, owner.token, 'same.txt', 'same bytes\n');
    const b = await upload(secret.id, owner.token, 'same.txt', 'same bytes\n');
    expect(a.body.url).to.not.equal(b.body.url);
    const rows = await s.db('uploads').where({ project_id: secret.id, filename: 'same.txt' });
    expect(rows).to.have.length(2);
    expect(rows[0].sha256).to.equal(rows[1].sha256);
    const dir = path.join(s.deps.repos.root, '@wharf', 'uploads', 'objects', rows[0].sha256.slice(0, 2), rows[0].sha256.slice(2, 4));
    expect(fs.readdirSync(dir)).to.deep.equal([rows[0].sha256]);
  });

  it('carries the uploads through export and import, at the same URLs', async () => {
    const r = await upload(secret.id, owner.token, 'kept.txt', 'kept across export\n');
    expect((await s.post(`/projects/${secret.id}/export`, { token: owner.token })).status).to.equal(202);
    await s.drainJobs();
    const res = await fetch(`${s.url}/api/v4/projects/${secret.id}/export/download`, { headers: { 'PRIVATE-TOKEN': owner.token } });
    const archive = Buffer.from(await res.arrayBuffer());
    const st = await importAndWait(s, owner.token, archive, { path: 'secret-copy' });
    expect(st.import_status, JSON.stringify(st)).to.equal('finished');
    const copy = (await s.get(`/projects/${encodeURIComponent('olga/secret-copy')}`, { token: owner.token })).body;
    const got = await served(copy, r.body.url, owner.token);
    expect(got.status).to.equal(200);
    expect(await got.text()).to.equal('kept across export\n');
  });

  it("removes a deleted project's files by the daily job once a day old, keeping what another row names", async () => {
    const gone = (await s.post('/projects', { token: owner.token, json: { name: 'gone', visibility: 'private' } })).body;
    const lonely = await upload(gone.id, owner.token, 'lonely.txt', 'only in the deleted project\n');
    const shared = await upload(gone.id, owner.token, 'same.txt', 'same bytes\n'); // also in `secret`
    expect(lonely.status).to.equal(201);
    expect(shared.status).to.equal(201);
    const rows = await s.db('uploads').where({ project_id: gone.id });
    const file = (sha: string) => path.join(s.deps.repos.root, '@wharf', 'uploads', 'objects', sha.slice(0, 2), sha.slice(2, 4), sha);
    expect((await s.delete(`/projects/${gone.id}`, { token: owner.token })).status).to.equal(202);
    await s.drainJobs();
    await enqueueJob(s.db, REMOVE_UNREFERENCED_UPLOADS, { at: new Date(Date.now() + 2 * 24 * 3600_000).toISOString() });
    await s.drainJobs();
    const lonelySha = rows.find((r: any) => r.filename === 'lonely.txt').sha256;
    const sharedSha = rows.find((r: any) => r.filename === 'same.txt').sha256;
    expect(fs.existsSync(file(lonelySha))).to.equal(false);
    expect(fs.existsSync(file(sharedSha))).to.equal(true);
  });
});
