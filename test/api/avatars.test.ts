// Uploaded avatars (GitLab 10.8): the `avatar` file of POST/PUT /users, /projects and /groups
// is checked (image extension, 200 KB), stored and served at the path `avatar_url` shows;
// private projects' and groups' avatars only to their readers. A user without one shows the
// Gravatar URL, none when `gravatar_enabled` is off.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import type { UserRow } from '../../src/store/rows.js';
import { Urls } from '../../src/http/urls.js';
import { avatarUrl } from '../../src/entities/user.js';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const FORMAT_ERROR = 'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff';

/** Sends a multipart body as a browser or python-gitlab does: fields and one `avatar` file. */
async function multipart(
  s: TestServer,
  method: string,
  path: string,
  fields: Record<string, string>,
  file?: { name: string; data: Buffer; type?: string },
  token: string | null = ROOT_TOKEN,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('avatar', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/png' }), file.name);
  const headers: Record<string, string> = token ? { 'PRIVATE-TOKEN': token } : {};
  const res = await fetch(`${s.url}/api/v4${path}`, { method, headers, body: form });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type') === 'application/json' ? JSON.parse(text) : text, text };
}

async function fetchBytes(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
  return { status: res.status, type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options'), data: Buffer.from(await res.arrayBuffer()) };
}

describe('Avatars', () => {
  let s: TestServer;
  let alice: { user: UserRow; token: string };
  let bob: { user: UserRow; token: string };

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
  });
  after(() => s.close());

  it('stores a user avatar given on create and serves it at avatar_url, to anyone', async () => {
    const r = await multipart(s, 'POST', '/users', { email: 'pic@example.com', username: 'pic', name: 'Pic', password: 'secret-password' }, { name: 'me.png', data: PNG });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.avatar_url).to.equal(`${s.url}/uploads/-/system/user/avatar/${r.body.id}/me.png`);
    const image = await fetchBytes(r.body.avatar_url);
    expect(image.status).to.equal(200);
    expect(image.type).to.equal('image/png');
    expect(image.nosniff).to.equal('nosniff');
    expect(image.data.equals(PNG)).to.equal(true);
    const shown = await s.get(`/users/${r.body.id}`, { token: alice.token });
    expect(shown.body.avatar_url).to.equal(r.body.avatar_url);
  });

  it('replaces a user avatar on update; the old path is gone', async () => {
    const first = await multipart(s, 'PUT', `/users/${bob.user.id}`, { bio: 'first' }, { name: 'one.png', data: PNG });
    expect(first.status, first.text).to.equal(200);
    const second = await multipart(s, 'PUT', `/users/${bob.user.id}`, {}, { name: 'two  weird name.JPG', data: PNG, type: 'image/jpeg' });
    expect(second.status, second.text).to.equal(200);
    expect(second.body.avatar_url).to.equal(`${s.url}/uploads/-/system/user/avatar/${bob.user.id}/two__weird_name.JPG`);
    expect((await fetchBytes(second.body.avatar_url)).status).to.equal(200);
    expect((await fetchBytes(first.body.avatar_url)).status).to.equal(404);
  });

  it("refuses a file that is not an image or is over 200 KB with 10.8's validation errors, writing nothing", async () => {
    const text = await multipart(
      s,
      'POST',
      '/users',
      { email: 'txt@example.com', username: 'txt', name: 'Txt', password: 'secret-password' },
      { name: 'notes.txt', data: Buffer.from('hello'), type: 'text/plain' },
    );
    expect(text.status).to.equal(400);
    expect(text.body).to.deep.equal({ message: { avatar: [FORMAT_ERROR] } });
    expect((await s.get('/users', { query: { username: 'txt' } })).body).to.deep.equal([]);
    const big = await multipart(s, 'PUT', `/users/${alice.user.id}`, { bio: 'big' }, { name: 'big.png', data: Buffer.alloc(200 * 1024 + 1) });
    expect(big.status).to.equal(400);
    expect(big.body).to.deep.equal({ message: { avatar: ['is too big (should be at most 200 KB)'] } });
    const back = await s.get(`/users/${alice.user.id}`);
    expect(back.body.bio).to.not.equal('big');
    const svg = await multipart(s, 'POST', '/projects', { name: 'svg' }, { name: 'x.svg', data: Buffer.from('<svg/>'), type: 'image/svg+xml' }, alice.token);
    expect(svg.status).to.equal(400);
    expect(svg.body).to.deep.equal({ message: { avatar: [FORMAT_ERROR] } });
    expect((await s.get('/projects', { token: alice.token, query: { owned: true } })).body).to.deep.equal([]);
  });

  it('refuses an avatar that is not a file', async () => {
    const r = await s.post('/projects', { token: alice.token, json: { name: 'strings', avatar: 'me.png' } });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: 'avatar is invalid' });
  });

  it("serves a private project's avatar to its members only", async () => {
    const created = await multipart(s, 'POST', '/projects', { name: 'secret', visibility: 'private' }, { name: 'logo.gif', data: PNG, type: 'image/gif' }, alice.token);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.avatar_url).to.equal(`${s.url}/uploads/-/system/project/avatar/${created.body.id}/logo.gif`);
    const mine = await fetchBytes(created.body.avatar_url, alice.token);
    expect(mine.status).to.equal(200);
    expect(mine.type).to.equal('image/gif');
    expect((await fetchBytes(created.body.avatar_url, bob.token)).status).to.equal(404);
    expect((await fetchBytes(created.body.avatar_url)).status).to.equal(404);
    const shown = await s.get(`/projects/${created.body.id}`, { token: alice.token });
    expect(shown.body.avatar_url).to.equal(created.body.avatar_url);

    const updated = await multipart(s, 'PUT', `/projects/${created.body.id}`, { description: 'new logo' }, { name: 'logo2.png', data: PNG }, alice.token);
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body).to.include({ description: 'new logo', avatar_url: `${s.url}/uploads/-/system/project/avatar/${created.body.id}/logo2.png` });
  });

  it('stores a group avatar on create and update and serves a public one to anyone', async () => {
    const created = await multipart(s, 'POST', '/groups', { name: 'Pics', path: 'pics', visibility: 'public' }, { name: 'g.png', data: PNG });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.avatar_url).to.equal(`${s.url}/uploads/-/system/group/avatar/${created.body.id}/g.png`);
    expect((await fetchBytes(created.body.avatar_url)).data.equals(PNG)).to.equal(true);
    const updated = await multipart(s, 'PUT', `/groups/${created.body.id}`, { description: 'd' }, { name: 'g2.bmp', data: PNG, type: 'image/bmp' });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body.avatar_url).to.equal(`${s.url}/uploads/-/system/group/avatar/${created.body.id}/g2.bmp`);
    expect((await s.get(`/groups/${created.body.id}`)).body.avatar_url).to.equal(updated.body.avatar_url);
  });

  it("removes the avatars of a deleted user, and of a deleted group's subgroups and projects", async () => {
    const user = await multipart(s, 'POST', '/users', { email: 'gone@example.com', username: 'gone', name: 'Gone', password: 'secret-password' }, { name: 'u.png', data: PNG });
    const group = await multipart(s, 'POST', '/groups', { name: 'Doomed', path: 'doomed', visibility: 'public' }, { name: 'g.png', data: PNG });
    const sub = await multipart(s, 'POST', '/groups', { name: 'Sub', path: 'sub', parent_id: String(group.body.id), visibility: 'public' }, { name: 's.png', data: PNG });
    const project = await multipart(s, 'POST', '/projects', { name: 'pic', namespace_id: String(sub.body.id), visibility: 'public' }, { name: 'p.png', data: PNG });
    const urls = [user, group, sub, project].map((r) => {
      expect(r.status, r.text).to.equal(201);
      return r.body.avatar_url as string;
    });
    for (const url of urls) expect((await fetchBytes(url)).status, url).to.equal(200);
    expect((await s.delete(`/users/${user.body.id}`, { token: ROOT_TOKEN })).status).to.equal(204);
    expect((await s.delete(`/groups/${group.body.id}`, { token: ROOT_TOKEN })).status).to.equal(204);
    await s.drainJobs();
    for (const url of urls) expect((await fetchBytes(url)).status, url).to.equal(404);
    const left = await s.deps.db('avatars').whereIn('filename', ['u.png', 'g.png', 's.png', 'p.png']).count({ n: '*' });
    expect(Number(left[0].n)).to.equal(0);
  });

  it('answers 404 for a path with no avatar', async () => {
    for (const path of [`/uploads/-/system/user/avatar/${alice.user.id}/none.png`, '/uploads/-/system/user/avatar/x/a.png', '/uploads/-/system/key/avatar/1/a.png']) {
      const r = await fetchBytes(`${s.url}${path}`);
      expect(r.status, path).to.equal(404);
    }
    // Ids no row can have (beyond PostgreSQL's integer) answer the same on both engines.
    for (const model of ['user', 'project', 'group']) {
      const r = await fetch(`${s.url}/uploads/-/system/${model}/avatar/99999999999999/a.png`);
      expect(r.status, model).to.equal(404);
      const body = await r.json();
      expect(body, model).to.deep.equal({ message: '404 Avatar Not Found' });
    }
  });

  it("shows the Gravatar of a user's e-mail when they have no avatar, none when gravatar_enabled is off", async () => {
    const hash = crypto.createHash('md5').update('alice@example.com').digest('hex');
    const r = await s.get(`/users/${alice.user.id}`);
    expect(r.body.avatar_url).to.equal(`https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`);
    const off = await s.put('/application/settings', { json: { gravatar_enabled: false } });
    expect(off.status, off.text).to.equal(200);
    expect((await s.get(`/users/${alice.user.id}`)).body.avatar_url).to.equal(null);
    // An uploaded avatar does not depend on the setting.
    expect((await s.get(`/users/${bob.user.id}`)).body.avatar_url).to.match(/\/uploads\/-\/system\/user\/avatar\//);
    await s.put('/application/settings', { json: { gravatar_enabled: true } });
  });

  it("builds the Gravatar URL as 10.8's GravatarService: secure host over https, the username without an e-mail", () => {
    const md5 = (v: string) => crypto.createHash('md5').update(v).digest('hex');
    expect(avatarUrl({ avatar_url: null, email: ' Carol@Example.com ' }, new Urls('https://git.example.com'))).to.equal(
      `https://secure.gravatar.com/avatar/${md5('carol@example.com')}?s=80&d=identicon`,
    );
    expect(avatarUrl({ avatar_url: null, email: 'carol@example.com' }, new Urls('http://git.example.com'))).to.equal(
      `https://www.gravatar.com/avatar/${md5('carol@example.com')}?s=80&d=identicon`,
    );
    expect(avatarUrl({ avatar_url: null, email: '', username: 'Carol' }, new Urls('http://git.example.com'))).to.equal(
      `https://www.gravatar.com/avatar/${md5('carol')}?s=80&d=identicon`,
    );
    expect(avatarUrl({ avatar_url: '/uploads/-/system/user/avatar/1/a.png', email: 'x@y' }, new Urls('https://git.example.com/'))).to.equal(
      'https://git.example.com/uploads/-/system/user/avatar/1/a.png',
    );
  });
});
