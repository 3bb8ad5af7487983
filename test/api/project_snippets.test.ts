// Project snippets API (GitLab 10.8 lib/api/project_snippets.rb): every operation and error
// with status and body, the entity's shape against GitLab's schema, validation that stores
// nothing, the feature switch and archived projects, user agent details, and notes, award
// emoji and events on snippets.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { created } from '../helpers/projects.js';
import { projectWithRoles, useServerWithRoles } from '../helpers/roles.js';

const SNIPPET_KEYS = ['id', 'title', 'file_name', 'description', 'author', 'updated_at', 'created_at', 'project_id', 'web_url'];

describe('Project snippets API', function () {
  this.timeout(60_000);
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();
  let project: { id: number; path_with_namespace: string };
  const url = (suffix = '') => `/projects/${project.id}/snippets${suffix}`;
  const body = { title: 'Hello', file_name: 'hello.rb', code: 'puts "hello"\n', description: 'Says hello', visibility: 'public' };

  before(async () => {
    project = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: 'snippety', visibility: 'public' });
  });

  const count = async () => Number((await s.db('snippets').count({ n: '*' }).first())?.n);

  describe('POST', () => {
    it('creates a snippet (201) in GitLab 10.8 ProjectSnippet shape', async () => {
      const r = await s.post(url(), { token: reporter.token, json: body });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(SNIPPET_KEYS);
      expect(r.body).to.include({ title: 'Hello', file_name: 'hello.rb', description: 'Says hello', project_id: project.id });
      expect(r.body.web_url).to.equal(`${s.url}/owner/snippety/snippets/${r.body.id}`);
      expect(r.body.author).to.include({ id: reporter.user.id, username: 'reporter', state: 'active' });
      expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expectSchema([r.body], 'public_api/v4/snippets.json');
      const row = await s.db('snippets').where({ id: r.body.id }).first();
      expect(row).to.include({ content: 'puts "hello"\n', visibility_level: 20, type: 'ProjectSnippet', project_id: project.id });
    });

    it('takes `content` for `code` (later GitLab and python-gitlab), and form bodies', async () => {
      const r = await s.post(url(), { token: dev.token, json: { ...body, code: undefined, content: 'via content', visibility: 'private' } });
      expect(r.status, r.text).to.equal(201);
      expect((await s.db('snippets').where({ id: r.body.id }).first()).content).to.equal('via content');
      const form = await s.post(url(), { token: dev.token, form: { title: 'f', file_name: 'f.txt', code: 'x', visibility: 'internal' } });
      expect(form.status, form.text).to.equal(201);
      expect((await s.db('snippets').where({ id: form.body.id }).first()).visibility_level).to.equal(10);
    });

    it('names missing and invalid parameters in Grape words (400)', async () => {
      const r = await s.post(url(), { token: dev.token, json: {} });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'title is missing, file_name is missing, code is missing, visibility is missing' });
      const bad = await s.post(url(), { token: dev.token, json: { ...body, visibility: 'secret' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'visibility does not have a valid value' });
    });

    it('answers model errors (400) and stores nothing', async () => {
      const before = await count();
      const cases: [Record<string, unknown>, unknown][] = [
        [{ title: '  ' }, { title: ["can't be blank"] }],
        [{ title: 'x'.repeat(256) }, { title: ['is too long (maximum is 255 characters)'] }],
        [{ file_name: 'f'.repeat(256) }, { file_name: ['is too long (maximum is 255 characters)'] }],
        [{ code: '' }, { content: ["can't be blank"] }],
        [{ code: 'text\u0000with a NUL' }, { content: ['must be text (it contains a NUL byte, as binary data does)'] }],
        [
          { title: '', code: ' ' },
          { title: ["can't be blank"], content: ["can't be blank"] },
        ],
      ];
      for (const [change, message] of cases) {
        const r = await s.post(url(), { token: dev.token, json: { ...body, ...change } });
        expect(r.status, JSON.stringify(change)).to.equal(400);
        expect(r.body, JSON.stringify(change)).to.deep.equal({ message });
      }
      expect(await count()).to.equal(before);
      // 255 characters (not UTF-16 units) are fine.
      const emoji = await s.post(url(), { token: dev.token, json: { ...body, title: '😀'.repeat(255) } });
      expect(emoji.status, emoji.text).to.equal(201);
    });

    it('needs reporter access: guests and strangers 403, anonymous 401', async () => {
      for (const who of [guest, stranger]) {
        const r = await s.post(url(), { token: who.token, json: body });
        expect(r.status).to.equal(403);
        expect(r.body).to.deep.equal({ message: '403 Forbidden' });
      }
      const anonymous = await s.post(url(), { token: null, json: body });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const admin_ = await s.post(url(), { token: admin.token, json: body });
      expect(admin_.status).to.equal(201);
    });

    it('records a `created` event of target Snippet, which the project events show to those who may read it', async () => {
      const priv = created(await s.post(url(), { token: dev.token, json: { ...body, title: 'Secret plan', visibility: 'private' } }));
      const pub = created(await s.post(url(), { token: dev.token, json: { ...body, title: 'Open plan' } }));
      const events = async (token: string) => (await s.get(`/projects/${project.id}/events`, { token, query: { target_type: 'snippet', per_page: 100 } })).body as any[];
      const forMember = await events(guest.token);
      const mine = forMember.find((e) => e.target_id === priv.id);
      expect(mine).to.include({ action_name: 'opened', target_type: 'Snippet', target_title: 'Secret plan', target_iid: priv.id, author_id: dev.user.id });
      const forStranger = (await events(stranger.token)).map((e) => e.target_id);
      expect(forStranger).to.include(pub.id);
      expect(forStranger).to.not.include(priv.id);
    });
  });

  describe('GET', () => {
    let snippet: { id: number };
    before(async () => {
      snippet = created(await s.post(url(), { token: dev.token, json: { ...body, title: 'Listed' } }));
    });

    it('lists newest first with pagination headers', async () => {
      const r = await s.get(url(), { token: guest.token, query: { per_page: 2 } });
      expect(r.status).to.equal(200);
      expect(r.body).to.have.length(2);
      expect(r.body[0].id).to.be.greaterThan(r.body[1].id);
      expect(r.headers.get('x-per-page')).to.equal('2');
      expect(Number(r.headers.get('x-total'))).to.equal(
        await s
          .db('snippets')
          .where({ project_id: project.id })
          .count({ n: '*' })
          .first()
          .then((x) => Number(x?.n)),
      );
      expect(r.headers.get('link')).to.contain('rel="next"');
      expectSchema(r.body, 'public_api/v4/snippets.json');
    });

    it('gets one; a missing one is 404 Not found; a non-integer id 400', async () => {
      const r = await s.get(url(`/${snippet.id}`), { token: guest.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ id: snippet.id, title: 'Listed' });
      const missing = await s.get(url('/999999'), { token: guest.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
      const bad = await s.get(url('/abc'), { token: guest.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'snippet_id is invalid' });
    });

    it('serves the raw content as text/plain, exactly', async () => {
      const text = 'línea 1\n\tláser ✓\r\n<script>alert(1)</script>\n';
      const one = created(await s.post(url(), { token: dev.token, json: { ...body, code: text } }));
      const r = await s.get(url(`/${one.id}/raw`), { token: stranger.token });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.equal('text/plain');
      expect(r.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(r.text).to.equal(text);
      const missing = await s.get(url('/999999/raw'), { token: dev.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Snippet Not Found' });
    });

    it('a project that hides its snippets shows none, takes none, and hides each', async () => {
      const off = await projectWithRoles(s, owner, { dev }, { name: 'no-snippets', visibility: 'public' });
      const one = created(await s.post(`/projects/${off.id}/snippets`, { token: dev.token, json: body }));
      expect((await s.put(`/projects/${off.id}`, { token: owner.token, json: { snippets_enabled: false } })).status).to.equal(200);
      for (const who of [dev, admin]) {
        const list = await s.get(`/projects/${off.id}/snippets`, { token: who.token });
        expect(list.status).to.equal(200);
        expect(list.body).to.deep.equal([]);
        const single = await s.get(`/projects/${off.id}/snippets/${one.id}`, { token: who.token });
        expect(single.body).to.deep.equal({ message: '404 Not found' });
        const create = await s.post(`/projects/${off.id}/snippets`, { token: who.token, json: body });
        expect(create.status).to.equal(403);
        const note = await s.post(`/projects/${off.id}/snippets/${one.id}/notes`, { token: who.token, json: { body: 'hi' } });
        expect(note.status).to.equal(404);
        expect(note.body).to.deep.equal({ message: '404 snippets Not Found' });
      }
    });
  });

  describe('PUT', () => {
    let snippet: { id: number; updated_at: string };
    before(async () => {
      snippet = created(await s.post(url(), { token: dev.token, json: { ...body, title: 'To change', visibility: 'private' } }));
    });

    it('changes what is given; updated_at moves only when something changed', async () => {
      const same = await s.put(url(`/${snippet.id}`), { token: dev.token, json: { title: 'To change' } });
      expect(same.status).to.equal(200);
      expect(same.body.updated_at).to.equal(snippet.updated_at);
      const r = await s.put(url(`/${snippet.id}`), { token: dev.token, json: { code: 'new code', description: null, file_name: 'b.py' } });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ title: 'To change', description: null, file_name: 'b.py' });
      expect(r.body.updated_at > snippet.updated_at).to.equal(true);
      const row = await s.db('snippets').where({ id: snippet.id }).first();
      expect(row).to.include({ content: 'new code', visibility_level: 0 });
      const content = await s.put(url(`/${snippet.id}`), { token: dev.token, json: { content: 'via content' } });
      expect(content.status).to.equal(200);
      const vis = await s.put(url(`/${snippet.id}`), { token: dev.token, json: { visibility: 'internal' } });
      expect(vis.status).to.equal(200);
      expect(await s.db('snippets').where({ id: snippet.id }).first()).to.include({ content: 'via content', visibility_level: 10 });
    });

    it('needs one of title, file_name, code, visibility (400, before looking the snippet up)', async () => {
      for (const id of [snippet.id, 999999]) {
        const r = await s.put(url(`/${id}`), { token: dev.token, json: { description: 'only this' } });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'title, file_name, code, visibility_level are missing, at least one parameter must be provided' });
      }
    });

    it('answers 404 Snippet Not Found for a missing one, model errors as 400 without change', async () => {
      const missing = await s.put(url('/999999'), { token: dev.token, json: { title: 'x' } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Snippet Not Found' });
      const before = await s.db('snippets').where({ id: snippet.id }).first();
      for (const [json, message] of [
        [{ title: '' }, { title: ["can't be blank"] }],
        [{ title: null }, { title: ["can't be blank"] }],
        [{ code: '' }, { content: ["can't be blank"] }],
        [{ code: 'a\u0000b' }, { content: ['must be text (it contains a NUL byte, as binary data does)'] }],
      ] as const) {
        const r = await s.put(url(`/${snippet.id}`), { token: dev.token, json });
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body).to.deep.equal({ message });
      }
      expect(await s.db('snippets').where({ id: snippet.id }).first()).to.deep.equal(before);
    });
  });

  describe('DELETE', () => {
    it('deletes (204) with its notes and award emoji; 404 Snippet Not Found after', async () => {
      const one = created(await s.post(url(), { token: dev.token, json: body }));
      const note = created(await s.post(url(`/${one.id}/notes`), { token: guest.token, json: { body: 'nice' } }));
      created(await s.post(url(`/${one.id}/award_emoji`), { token: guest.token, json: { name: 'heart' } }));
      created(await s.post(url(`/${one.id}/notes/${note.id}/award_emoji`), { token: dev.token, json: { name: 'tada' } }));
      const r = await s.delete(url(`/${one.id}`), { token: master.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect(await s.db('notes').where({ noteable_type: 'Snippet', noteable_id: one.id }).first()).to.equal(undefined);
      expect(await s.db('award_emoji').where({ awardable_type: 'Snippet', awardable_id: one.id }).first()).to.equal(undefined);
      expect(await s.db('award_emoji').where({ awardable_type: 'Note', awardable_id: note.id }).first()).to.equal(undefined);
      expect(await s.db('events').where({ target_type: 'Snippet', target_id: one.id }).first()).to.equal(undefined);
      expect(await s.db('events').where({ target_type: 'Note', target_id: note.id }).first()).to.equal(undefined);
      const again = await s.delete(url(`/${one.id}`), { token: master.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Snippet Not Found' });
    });

    it('honours If-Unmodified-Since (412)', async () => {
      const one = created(await s.post(url(), { token: dev.token, json: body }));
      const r = await s.delete(url(`/${one.id}`), { token: dev.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(r.status).to.equal(412);
      expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
      expect(await s.db('snippets').where({ id: one.id }).first()).to.not.equal(undefined);
    });
  });

  describe('archived projects', () => {
    it('are read-only for snippets, even for their authors and admins', async () => {
      const archived = await projectWithRoles(s, owner, { dev }, { name: 'frozen', visibility: 'public' });
      const one = created(await s.post(`/projects/${archived.id}/snippets`, { token: dev.token, json: body }));
      expect((await s.post(`/projects/${archived.id}/archive`, { token: owner.token })).status).to.equal(201);
      for (const who of [dev, admin]) {
        const base = `/projects/${archived.id}/snippets`;
        for (const r of [
          await s.post(base, { token: who.token, json: body }),
          await s.put(`${base}/${one.id}`, { token: who.token, json: { title: 'x' } }),
          await s.delete(`${base}/${one.id}`, { token: who.token }),
        ]) {
          expect(r.status).to.equal(403);
          expect(r.body).to.deep.equal({ message: '403 Forbidden' });
        }
        expect((await s.get(`${base}/${one.id}`, { token: who.token })).status).to.equal(200);
      }
    });
  });

  describe('user_agent_detail', () => {
    it('shows admins where a snippet came from', async () => {
      const one = created(await s.post(url(), { token: dev.token, json: body, headers: { 'User-Agent': 'python-gitlab/3.12.0' } }));
      const r = await s.get(url(`/${one.id}/user_agent_detail`), { token: admin.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ user_agent: 'python-gitlab/3.12.0', ip_address: '127.0.0.1', akismet_submitted: false });
      const byPath = await s.get(`/projects/${encodeURIComponent(project.path_with_namespace)}/snippets/${one.id}/user_agent_detail`, { token: admin.token });
      expect(byPath.body).to.deep.equal(r.body);
    });

    it('is for admins only (403; anonymous 401), scoped to the project (404 Not found)', async () => {
      const one = created(await s.post(url(), { token: dev.token, json: body }));
      const forbidden = await s.get(url(`/${one.id}/user_agent_detail`), { token: owner.token });
      expect(forbidden.status).to.equal(403);
      expect(forbidden.body).to.deep.equal({ message: '403 Forbidden' });
      const anonymous = await s.get(url(`/${one.id}/user_agent_detail`), { token: null });
      expect(anonymous.status).to.equal(401);
      const other = await projectWithRoles(s, owner, {}, { name: 'other-project' });
      const wrong = await s.get(`/projects/${other.id}/snippets/${one.id}/user_agent_detail`, { token: admin.token });
      expect(wrong.status).to.equal(404);
      expect(wrong.body).to.deep.equal({ message: '404 Not found' });
    });

    it('is 404 UserAgentDetail Not Found when the request named no user agent', async () => {
      const one = created(await s.post(url(), { token: dev.token, json: body, headers: { 'User-Agent': '' } }));
      const r = await s.get(url(`/${one.id}/user_agent_detail`), { token: admin.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 UserAgentDetail Not Found' });
    });
  });

  describe('notes and award emoji', () => {
    let one: { id: number };
    let secret: { id: number };
    before(async () => {
      one = created(await s.post(url(), { token: dev.token, json: { ...body, title: 'Talk about me' } }));
      secret = created(await s.post(url(), { token: dev.token, json: { ...body, title: 'Hush', visibility: 'private' } }));
    });

    it('comments, lists, gets, edits and deletes notes (noteable_type Snippet, noteable_iid null)', async () => {
      const note = await s.post(url(`/${one.id}/notes`), { token: stranger.token, json: { body: 'From outside' } });
      expect(note.status, note.text).to.equal(201);
      expect(note.body).to.include({ body: 'From outside', noteable_id: one.id, noteable_type: 'Snippet', noteable_iid: null, system: false });
      const list = await s.get(url(`/${one.id}/notes`), { token: guest.token });
      expect(list.body.map((n: { id: number }) => n.id)).to.deep.equal([note.body.id]);
      // (GitLab's notes.json wants an integer noteable_iid: it was written for issue notes; 10.8 gives null here.)
      const got = await s.get(url(`/${one.id}/notes/${note.body.id}`), { token: guest.token });
      expect(got.body.body).to.equal('From outside');
      const edit = await s.put(url(`/${one.id}/notes/${note.body.id}`), { token: stranger.token, json: { body: 'Edited' } });
      expect(edit.body.body).to.equal('Edited');
      const notMine = await s.put(url(`/${one.id}/notes/${note.body.id}`), { token: guest.token, json: { body: 'no' } });
      expect(notMine.status).to.equal(403);
      const events = await s.get(`/projects/${project.id}/events`, { token: stranger.token, query: { action: 'commented' } });
      const commented = events.body.find((e: { target_id: number }) => e.target_id === note.body.id);
      expect(commented).to.include({ action_name: 'commented on', target_type: 'Note', target_title: 'Talk about me' });
      expect(commented.note).to.include({ noteable_type: 'Snippet', noteable_iid: null });
      const del = await s.delete(url(`/${one.id}/notes/${note.body.id}`), { token: master.token });
      expect(del.status).to.equal(204);
    });

    it("hides a snippet's notes from who may not read it (404 snippets Not Found), a missing one is 404 Not found", async () => {
      const note = created(await s.post(url(`/${secret.id}/notes`), { token: guest.token, json: { body: 'members only' } }));
      for (const [method, path] of [
        ['GET', url(`/${secret.id}/notes`)],
        ['GET', url(`/${secret.id}/notes/${note.id}`)],
        ['POST', url(`/${secret.id}/notes`)],
      ] as const) {
        const r = await s.request(method, path, { token: stranger.token, json: method === 'POST' ? { body: 'x' } : undefined });
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 snippets Not Found' });
      }
      const missing = await s.get(url('/999999/notes'), { token: guest.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
      const events = await s.get(`/projects/${project.id}/events`, { token: stranger.token, query: { action: 'commented', per_page: 100 } });
      expect(events.body.map((e: { target_id: number }) => e.target_id)).to.not.include(note.id);
    });

    it('awards emoji to snippets and their notes, hidden ones as 404 Award Emoji Not Found', async () => {
      const award = await s.post(url(`/${one.id}/award_emoji`), { token: stranger.token, json: { name: 'thumbsup' } });
      expect(award.status, award.text).to.equal(201);
      expect(award.body).to.include({ name: 'thumbsup', awardable_id: one.id, awardable_type: 'Snippet' });
      const own = await s.post(url(`/${one.id}/award_emoji`), { token: dev.token, json: { name: 'thumbsup' } });
      expect(own.status).to.equal(404); // no votes on what one wrote
      const list = await s.get(url(`/${one.id}/award_emoji`), { token: guest.token });
      expect(list.body.map((a: { id: number }) => a.id)).to.deep.equal([award.body.id]);
      const hidden = await s.get(url(`/${secret.id}/award_emoji`), { token: stranger.token });
      expect(hidden.status).to.equal(404);
      expect(hidden.body).to.deep.equal({ message: '404 Award Emoji Not Found' });
      const note = created(await s.post(url(`/${one.id}/notes`), { token: guest.token, json: { body: 'vote me' } }));
      const onNote = await s.post(url(`/${one.id}/notes/${note.id}/award_emoji`), { token: reporter.token, json: { name: 'heart' } });
      expect(onNote.status).to.equal(201);
      expect(onNote.body).to.include({ awardable_type: 'Note', awardable_id: note.id });
      const removed = await s.delete(url(`/${one.id}/award_emoji/${award.body.id}`), { token: stranger.token });
      expect(removed.status).to.equal(204);
    });
  });
});

describe('Project snippets: size limit', function () {
  this.timeout(60_000);
  let s: TestServer;
  before(async () => {
    // A body limit above the 10 MB snippet limit (max_attachment_size), so that the snippet's own rule answers.
    s = await bootServer({ WHARF_MAX_BODY_BYTES: String(12 * 1024 * 1024) });
  });
  after(async () => s.close());

  it('refuses content over max_attachment_size (400) and stores nothing', async () => {
    const project = created(await s.post('/projects', { json: { name: 'big' } }));
    const json = { title: 'big', file_name: 'big.txt', code: 'a'.repeat(10 * 1024 * 1024 + 1), visibility: 'private' };
    const r = await s.post(`/projects/${project.id}/snippets`, { json });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ message: { content: ['is too long (maximum is 10 MB)'] } });
    expect(await s.db('snippets').first()).to.equal(undefined);
    const fits = await s.post(`/projects/${project.id}/snippets`, { json: { ...json, code: 'a'.repeat(10 * 1024 * 1024) } });
    expect(fits.status).to.equal(201);
  });

  it('follows the max_attachment_size setting', async () => {
    const set = await s.put('/application/settings', { json: { max_attachment_size: 1 } });
    expect(set.status).to.equal(200);
    const project = created(await s.post('/projects', { json: { name: 'smaller' } }));
    const json = { title: 'big', file_name: 'big.txt', code: 'a'.repeat(1024 * 1024 + 1), visibility: 'private' };
    const r = await s.post(`/projects/${project.id}/snippets`, { json });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ message: { content: ['is too long (maximum is 1 MB)'] } });
    expect(await s.db('snippets').where({ project_id: project.id }).first()).to.equal(undefined);
  });
});
