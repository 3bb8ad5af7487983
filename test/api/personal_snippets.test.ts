// Personal snippets API (GitLab 10.8 lib/api/snippets.rb): the user's own snippets, the public
// ones, create/update/delete/raw with every error's status and body, what a project snippet
// is under /snippets, externals, and the admins' user agent detail.
import { expect } from 'chai';
import { expectSchema } from '../helpers/schema.js';
import { created } from '../helpers/projects.js';
import { projectWithRoles, useServerWithRoles } from '../helpers/roles.js';

const PERSONAL_KEYS = ['id', 'title', 'file_name', 'description', 'author', 'updated_at', 'created_at', 'project_id', 'web_url', 'raw_url'];

describe('Personal snippets API', function () {
  this.timeout(60_000);
  const { s, owner, dev, stranger, admin } = useServerWithRoles();
  const body = { title: 'Mine', file_name: 'mine.txt', content: 'my text\n', description: 'of mine', visibility: 'public' };
  const count = async () => Number((await s.db('snippets').count({ n: '*' }).first())?.n);

  describe('POST /snippets', () => {
    it('creates a personal snippet (201) in GitLab 10.8 PersonalSnippet shape, internal by default', async () => {
      const r = await s.post('/snippets', { token: dev.token, json: { ...body, visibility: undefined } });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(PERSONAL_KEYS);
      expect(r.body).to.include({ title: 'Mine', file_name: 'mine.txt', description: 'of mine', project_id: null });
      expect(r.body.web_url).to.equal(`${s.url}/snippets/${r.body.id}`);
      expect(r.body.raw_url).to.equal(`${s.url}/snippets/${r.body.id}/raw`);
      expect(r.body.author).to.include({ id: dev.user.id, username: 'dev' });
      const row = await s.db('snippets').where({ id: r.body.id }).first();
      expect(row).to.include({ type: 'PersonalSnippet', project_id: null, visibility_level: 10, content: 'my text\n' });
    });

    it('names missing and invalid parameters (400), stores nothing', async () => {
      const before = await count();
      const r = await s.post('/snippets', { token: dev.token, json: {} });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'title is missing, file_name is missing, content is missing' });
      const bad = await s.post('/snippets', { token: dev.token, json: { ...body, visibility: 'everyone' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'visibility does not have a valid value' });
      const blank = await s.post('/snippets', { token: dev.token, json: { ...body, title: ' ' } });
      expect(blank.status).to.equal(400);
      expect(blank.body).to.deep.equal({ message: { title: ["can't be blank"] } });
      expect(await count()).to.equal(before);
    });

    it('refuses binary content (400) and stores nothing', async () => {
      const before = await count();
      const r = await s.post('/snippets', { token: dev.token, json: { ...body, content: 'a\u0000b' } });
      expect(r.status).to.equal(400);
      expect(r.body.message).to.have.property('content');
      expect(await count()).to.equal(before);
    });

    it('is 401 anonymous, 403 for external users', async () => {
      const anonymous = await s.post('/snippets', { token: null, json: body });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
      const external = await s.createUser('outsider', { external: true });
      const r = await s.post('/snippets', { token: external.token, json: body });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal({ message: '403 Forbidden' });
    });
  });

  describe('lists, single and raw', () => {
    let mine: { id: number };
    let privateOne: { id: number };
    let theirs: { id: number };
    let inProject: { id: number };
    before(async () => {
      mine = created(await s.post('/snippets', { token: stranger.token, json: { ...body, title: 'public of stranger' } }));
      privateOne = created(await s.post('/snippets', { token: stranger.token, json: { ...body, title: 'private of stranger', visibility: 'private' } }));
      theirs = created(await s.post('/snippets', { token: owner.token, json: { ...body, title: 'public of owner' } }));
      const project = await projectWithRoles(s, owner, {}, { name: 'open', visibility: 'public' });
      inProject = created(await s.post(`/projects/${project.id}/snippets`, { token: owner.token, json: { title: 'p', file_name: 'p', code: 'p', visibility: 'public' } }));
    });

    it("GET /snippets lists the user's own only, newest first", async () => {
      const r = await s.get('/snippets', { token: stranger.token });
      expect(r.status).to.equal(200);
      expect(r.body.map((x: { id: number }) => x.id)).to.deep.equal([privateOne.id, mine.id]);
      expectSchema(
        r.body.map(({ raw_url: _raw, ...rest }: Record<string, unknown>) => rest),
        'public_api/v4/snippets.json',
      );
      expect((await s.get('/snippets', { token: null })).status).to.equal(401);
    });

    it("GET /snippets lists one's project snippets too, in PersonalSnippet shape", async () => {
      const r = await s.get('/snippets', { token: owner.token });
      const ids = r.body.map((x: { id: number }) => x.id);
      expect(ids).to.include.members([theirs.id, inProject.id]);
      const p = r.body.find((x: { id: number }) => x.id === inProject.id);
      expect(p.web_url).to.equal(`${s.url}/owner/open/snippets/${inProject.id}`);
      expect(p.raw_url).to.equal(`${p.web_url}/raw`);
    });

    it('GET /snippets/public lists public snippets, never private ones', async () => {
      const r = await s.get('/snippets/public', { token: dev.token });
      expect(r.status).to.equal(200);
      const ids = r.body.map((x: { id: number }) => x.id);
      expect(ids).to.include.members([mine.id, theirs.id, inProject.id]);
      expect(ids).not.to.include(privateOne.id);
    });

    it("GET /snippets/:id shows one's own; another's is 404 Not found; a bad id 400", async () => {
      const r = await s.get(`/snippets/${privateOne.id}`, { token: stranger.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ id: privateOne.id, title: 'private of stranger' });
      const other = await s.get(`/snippets/${theirs.id}`, { token: stranger.token });
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({ message: '404 Not found' });
      const bad = await s.get('/snippets/abc', { token: stranger.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'id is invalid' });
    });

    it("GET /snippets/:id/raw serves one's own as text/plain; another's is 404 Snippet Not Found", async () => {
      const r = await s.get(`/snippets/${mine.id}/raw`, { token: stranger.token });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^text\/plain/);
      expect(r.text).to.equal('my text\n');
      const other = await s.get(`/snippets/${theirs.id}/raw`, { token: stranger.token });
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({ message: '404 Snippet Not Found' });
    });
  });

  describe('PUT and DELETE', () => {
    it('updates what is given; 400 when nothing is; model errors keep the row', async () => {
      const one = created(await s.post('/snippets', { token: dev.token, json: body }));
      const r = await s.put(`/snippets/${one.id}`, { token: dev.token, json: { title: 'Renamed', visibility: 'private' } });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ title: 'Renamed', file_name: 'mine.txt' });
      expect((await s.db('snippets').where({ id: one.id }).first()).visibility_level).to.equal(0);
      const none = await s.put(`/snippets/${one.id}`, { token: dev.token, json: { description: 'only' } });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'title, file_name, content, visibility are missing, at least one parameter must be provided' });
      const blank = await s.put(`/snippets/${one.id}`, { token: dev.token, json: { content: 'x\u0000' } });
      expect(blank.status).to.equal(400);
      expect((await s.db('snippets').where({ id: one.id }).first()).title).to.equal('Renamed');
    });

    it("404 Snippet Not Found for another's or a missing one; 403 for one's project snippet", async () => {
      const one = created(await s.post('/snippets', { token: dev.token, json: body }));
      const other = await s.put(`/snippets/${one.id}`, { token: stranger.token, json: { title: 'x' } });
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({ message: '404 Snippet Not Found' });
      const missing = await s.delete('/snippets/999999', { token: dev.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Snippet Not Found' });
      const project = await projectWithRoles(s, owner, {}, { name: 'mine-too', visibility: 'public' });
      const ps = created(await s.post(`/projects/${project.id}/snippets`, { token: owner.token, json: { title: 'p', file_name: 'p', code: 'p', visibility: 'public' } }));
      const put = await s.put(`/snippets/${ps.id}`, { token: owner.token, json: { title: 'x' } });
      expect(put.status).to.equal(403);
      expect(put.body).to.deep.equal({ message: '403 Forbidden' });
      const del = await s.delete(`/snippets/${ps.id}`, { token: owner.token });
      expect(del.status).to.equal(403);
      expect(await s.db('snippets').where({ id: ps.id }).first()).to.not.equal(undefined);
    });

    it('deletes (204); it is gone after', async () => {
      const one = created(await s.post('/snippets', { token: dev.token, json: body }));
      const r = await s.delete(`/snippets/${one.id}`, { token: dev.token });
      expect(r.status).to.equal(204);
      expect(await s.db('snippets').where({ id: one.id }).first()).to.equal(undefined);
      const again = await s.delete(`/snippets/${one.id}`, { token: dev.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Snippet Not Found' });
    });
  });

  describe('user_agent_detail', () => {
    it("shows admins any snippet's origin; 403 to others; 404 Not found when missing", async () => {
      const one = created(await s.post('/snippets', { token: dev.token, json: body, headers: { 'User-Agent': 'curl/8.0' } }));
      const r = await s.get(`/snippets/${one.id}/user_agent_detail`, { token: admin.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ user_agent: 'curl/8.0', ip_address: '127.0.0.1', akismet_submitted: false });
      const mine = await s.get(`/snippets/${one.id}/user_agent_detail`, { token: dev.token });
      expect(mine.status).to.equal(403);
      expect(mine.body).to.deep.equal({ message: '403 Forbidden' });
      const missing = await s.get('/snippets/999999/user_agent_detail', { token: admin.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
    });
  });

  describe('deleting the author', () => {
    it('removes their snippets with the notes and award emoji on them', async () => {
      const leaver = await s.createUser('leaver');
      const project = await projectWithRoles(s, owner, { reporter: leaver }, { name: 'left-behind', visibility: 'public' });
      const ps = created(await s.post(`/projects/${project.id}/snippets`, { token: leaver.token, json: { title: 'p', file_name: 'p', code: 'p', visibility: 'public' } }));
      const mine = created(await s.post('/snippets', { token: leaver.token, json: body }));
      const note = created(await s.post(`/projects/${project.id}/snippets/${ps.id}/notes`, { token: owner.token, json: { body: 'a comment' } }));
      created(await s.post(`/projects/${project.id}/snippets/${ps.id}/award_emoji`, { token: owner.token, json: { name: 'thumbsup' } }));
      const r = await s.delete(`/users/${leaver.user.id}`);
      expect(r.status, r.text).to.equal(204);
      expect(await s.db('snippets').whereIn('id', [ps.id, mine.id])).to.deep.equal([]);
      expect(await s.db('notes').where({ id: note.id })).to.deep.equal([]);
      expect(await s.db('award_emoji').where({ awardable_type: 'Snippet', awardable_id: ps.id })).to.deep.equal([]);
    });
  });
});
