// Project labels (GitLab 10.8 lib/api/labels.rb) and label subscriptions
// (lib/api/subscriptions.rb): the permission matrix, every create/update/delete rule and
// error body, and what deleting a project or a user does to label rows.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { insertMember } from '../../src/services/members/members.js';
import { GUEST } from '../../src/policy/levels.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const LABEL_NOT_FOUND = { message: '404 Label Not Found' };
const KEYS = ['id', 'name', 'color', 'description', 'open_issues_count', 'closed_issues_count', 'open_merge_requests_count', 'priority', 'subscribed'];

describe('Project labels', () => {
  const { s, owner, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  /** A project of owner's with a developer, a reporter and a guest; returns its labels path. */
  async function project(visibility = 'private'): Promise<{ id: number; path: string }> {
    const { id } = await projectWithRoles(s, owner, { dev, reporter, guest }, { name: `lab${++counter}`, visibility });
    return { id, path: `/projects/${id}/labels` };
  }

  const create = (path: string, json: Record<string, unknown>, token = owner.token) => s.post(path, { token, json });

  async function label(path: string, name: string, extra: Record<string, unknown> = {}) {
    const r = await create(path, { name, color: '#FFAABB', ...extra });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  describe('permissions', () => {
    let priv: { id: number; path: string };
    let pub: { id: number; path: string };
    before(async () => {
      priv = await project('private');
      pub = await project('public');
      await label(priv.path, 'p');
      await label(pub.path, 'q');
    });

    it('needs a signed-in user for everything, even on a public project', async () => {
      for (const p of [pub, priv]) {
        for (const [method, path] of [
          ['GET', p.path],
          ['POST', p.path],
          ['PUT', p.path],
          ['DELETE', p.path],
          ['POST', `${p.path}/q/subscribe`],
          ['POST', `${p.path}/q/unsubscribe`],
        ]) {
          const r = await s.request(method, path, { token: null, json: method === 'GET' ? undefined : { name: 'q', color: '#000000' } });
          expect(r.status, `${method} ${path}`).to.equal(401);
          expect(r.body).to.deep.equal(UNAUTHORIZED);
        }
      }
    });

    it('hides a private project from non-members (404), whatever the operation', async () => {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const r = await s.request(method, priv.path, { token: stranger.token, json: method === 'GET' ? undefined : { name: 'p', color: '#000000' } });
        expect(r.status, method).to.equal(404);
        expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
      }
      const sub = await s.post(`${priv.path}/p/subscribe`, { token: stranger.token });
      expect(sub.status).to.equal(404);
      expect(sub.body).to.deep.equal(PROJECT_NOT_FOUND);
    });

    it("lets any signed-in user read a public project's labels, and guests read a private one's", async () => {
      const viaStranger = await s.get(pub.path, { token: stranger.token });
      expect(viaStranger.status).to.equal(200);
      expect(viaStranger.body.map((l: { name: string }) => l.name)).to.deep.equal(['q']);
      for (const who of [guest, reporter, dev, admin]) {
        const r = await s.get(priv.path, { token: who.token });
        expect(r.status, who.user.username).to.equal(200);
        expect(r.body.map((l: { name: string }) => l.name)).to.deep.equal(['p']);
      }
    });

    it('refuses writes below reporter with 403, before looking at the parameters', async () => {
      for (const p of [pub, priv]) {
        for (const who of [guest, ...(p === pub ? [stranger] : [])]) {
          for (const method of ['POST', 'PUT', 'DELETE']) {
            const r = await s.request(method, p.path, { token: who.token }); // no parameters at all
            expect(r.status, `${who.user.username} ${method}`).to.equal(403);
            expect(r.body).to.deep.equal(FORBIDDEN);
          }
        }
      }
    });

    it('lets reporters, developers, the owner and admins write', async () => {
      for (const who of [reporter, dev, owner, admin]) {
        const name = `by-${who.user.username}`;
        expect((await create(priv.path, { name, color: 'red' }, who.token)).status, who.user.username).to.equal(201);
        const put = await s.put(priv.path, { token: who.token, json: { name, description: 'x' } });
        expect(put.status).to.equal(200);
        const del = await s.delete(priv.path, { token: who.token, json: { name } });
        expect(del.status).to.equal(204);
      }
    });

    it('lets any reader subscribe, guests included', async () => {
      const r = await s.post(`${priv.path}/p/subscribe`, { token: guest.token });
      expect(r.status).to.equal(201);
      expect(r.body.subscribed).to.equal(true);
      const onPublic = await s.post(`${pub.path}/q/subscribe`, { token: stranger.token });
      expect(onPublic.status).to.equal(201);
    });
  });

  describe('POST /projects/:id/labels', () => {
    let p: { id: number; path: string };
    beforeEach(async () => {
      p = await project();
    });

    it('creates a label with every field and answers 201 with the Label entity', async () => {
      const r = await create(p.path, { name: 'Foo', color: '#FFAABB', description: 'test', priority: 2 });
      expect(r.status).to.equal(201);
      expect(Object.keys(r.body)).to.have.members(KEYS);
      expect(r.body).to.include({
        name: 'Foo',
        color: '#FFAABB',
        description: 'test',
        priority: 2,
        open_issues_count: 0,
        closed_issues_count: 0,
        open_merge_requests_count: 0,
        subscribed: false,
      });
      expect(r.body.id).to.be.a('number');
    });

    it('leaves description and priority null when not given, and accepts a form body', async () => {
      const r = await s.post(p.path, { token: owner.token, form: { name: 'Foo & Bar', color: '#abc', priority: '' } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ name: 'Foo & Bar', color: '#abc', description: null, priority: null });
    });

    it('turns CSS colour names into hex codes', async () => {
      expect((await create(p.path, { name: 'a', color: 'red' })).body.color).to.equal('#FF0000');
      expect((await create(p.path, { name: 'b', color: ' RebeccaPurple ' })).body.color).to.equal('#663399');
      expect((await create(p.path, { name: 'c', color: ' #00ff00 ' })).body.color).to.equal('#00ff00');
    });

    it('strips HTML tags and surrounding blanks from the name', async () => {
      expect((await create(p.path, { name: '  <b>bold</b> one ', color: '#000' })).body.name).to.equal('bold one');
      expect((await create(p.path, { name: 'a < b -> c', color: '#000' })).body.name).to.equal('a < b -> c');
    });

    it('treats names case-sensitively, as GitLab does', async () => {
      await label(p.path, 'Bug');
      expect((await create(p.path, { name: 'bug', color: '#000' })).status).to.equal(201);
    });

    it('answers 409 when the name is taken', async () => {
      await label(p.path, 'label1');
      const r = await create(p.path, { name: 'label1', color: '#FFAABB' });
      expect(r.status).to.equal(409);
      expect(r.body).to.deep.equal({ message: 'Label already exists' });
    });

    it('answers 400 with the model errors when only stripping makes the name a duplicate', async () => {
      await label(p.path, 'dup');
      const r = await create(p.path, { name: ' dup ', color: '#FFAABB' });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { title: ['has already been taken'] } });
    });

    it("answers Grape's 400s for missing or mistyped parameters", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ color: '#FFAABB' }, 'name is missing'],
        [{ name: 'Foobar' }, 'color is missing'],
        [{}, 'name is missing, color is missing'],
        [{ name: 'Foo', color: '#FFAABB', priority: 'foo' }, 'priority is invalid'],
      ];
      for (const [json, error] of cases) {
        const r = await create(p.path, json);
        expect(r.status, error).to.equal(400);
        expect(r.body).to.deep.equal({ error });
      }
    });

    it('answers 400 with the model errors for a bad colour, name or priority', async () => {
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ name: 'Foo', color: '#FFAA' }, { color: ['must be a valid color code'] }],
        [{ name: 'Foo', color: '#FFAAFFFF' }, { color: ['must be a valid color code'] }],
        [{ name: 'Foo', color: 'notacolour' }, { color: ['must be a valid color code'] }],
        [{ name: 'Foo', color: '' }, { color: ['must be a valid color code'] }],
        [{ name: ',', color: '#FFAABB' }, { title: ['is invalid'] }],
        [{ name: 'a,b', color: '#FFAABB' }, { title: ['is invalid'] }],
        [{ name: '  ', color: '#FFAABB' }, { title: ["can't be blank", 'is invalid'] }],
        [{ name: 'x'.repeat(256), color: '#FFAABB' }, { title: ['is too long (maximum is 255 characters)'] }],
        [
          { name: '', color: 'nope' },
          { color: ['must be a valid color code'], title: ["can't be blank", 'is invalid'] },
        ],
        [{ name: 'Foo', color: '#FFAABB', priority: -1 }, { priority: ['must be greater than or equal to 0'] }],
      ];
      for (const [json, message] of cases) {
        const r = await create(p.path, json);
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body).to.deep.equal({ message });
      }
      expect((await s.get(p.path, { token: owner.token })).body).to.deep.equal([]);
    });
  });

  describe('GET /projects/:id/labels', () => {
    it("lists the project's labels by name, paginated, with counts and the caller's subscriptions", async () => {
      const p = await project();
      const other = await project();
      await label(other.path, 'elsewhere');
      for (const name of ['zeta', 'alpha', 'beta', 'Alpha']) await label(p.path, name, name === 'beta' ? { priority: 3 } : {});
      expect((await s.post(`${p.path}/beta/subscribe`, { token: guest.token })).status).to.equal(201);

      const all = await s.get(p.path, { token: guest.token });
      expect(all.status).to.equal(200);
      expect(all.body.map((l: { name: string }) => l.name)).to.deep.equal(['Alpha', 'alpha', 'beta', 'zeta']);
      expect(all.headers.get('x-total')).to.equal('4');
      const beta = all.body[2];
      expect(Object.keys(beta)).to.have.members(KEYS);
      expect(beta).to.include({ priority: 3, subscribed: true, open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
      expect(all.body[0]).to.include({ priority: null, subscribed: false });
      // Subscriptions are the caller's own.
      expect((await s.get(p.path, { token: reporter.token })).body[2].subscribed).to.equal(false);

      const page2 = await s.get(p.path, { token: guest.token, query: { per_page: 3, page: 2 } });
      expect(page2.body.map((l: { name: string }) => l.name)).to.deep.equal(['zeta']);
      expect(page2.headers.get('x-total-pages')).to.equal('2');
      expect(page2.headers.get('x-prev-page')).to.equal('1');
      expect(page2.headers.get('x-next-page')).to.equal('');

      const bad = await s.get(p.path, { token: guest.token, query: { page: 'x' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'page is invalid' });
    });

    it('answers an empty page for a project without labels', async () => {
      const r = await s.get((await project()).path, { token: owner.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([]);
      expect(r.headers.get('x-total')).to.equal('0');
    });

    it('answers 404 for an unknown project', async () => {
      const r = await s.get('/projects/999999/labels', { token: owner.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
    });
  });

  describe('PUT /projects/:id/labels', () => {
    let p: { id: number; path: string };
    beforeEach(async () => {
      p = await project();
      await label(p.path, 'label1');
      await label(p.path, 'bug', { priority: 3, description: 'd' });
    });
    const put = (json: Record<string, unknown>) => s.put(p.path, { token: reporter.token, json });

    it('renames and recolours, keeping what is not given', async () => {
      const r = await put({ name: 'label1', new_name: 'New Label', color: 'white', description: 'test' });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ name: 'New Label', color: '#FFFFFF', description: 'test', priority: null });
      const again = await put({ name: 'bug', color: '#123456' });
      expect(again.body).to.include({ name: 'bug', color: '#123456', description: 'd', priority: 3 });
      const names = (await s.get(p.path, { token: owner.token })).body.map((l: { name: string }) => l.name);
      expect(names).to.deep.equal(['bug', 'New Label']);
    });

    it('sets, changes and removes the priority', async () => {
      expect((await put({ name: 'label1', priority: 3 })).body.priority).to.equal(3);
      expect((await put({ name: 'bug', priority: 10 })).body.priority).to.equal(10);
      expect((await put({ name: 'bug', priority: null })).body.priority).to.equal(null);
      expect((await put({ name: 'label1', priority: '' })).body.priority).to.equal(null);
      expect((await put({ name: 'label1', description: 'only this' })).body).to.include({ description: 'only this', priority: null });
    });

    it('ignores a blank new_name and clears the description with null', async () => {
      const r = await put({ name: 'bug', new_name: '', description: null });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ name: 'bug', description: null });
    });

    it('answers 400 when nothing to change is given or the name is missing', async () => {
      const none = await put({ name: 'label1' });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'new_name, color, description, priority are missing, at least one parameter must be provided' });
      const noName = await put({ new_name: 'label2' });
      expect(noName.status).to.equal(400);
      expect(noName.body).to.deep.equal({ error: 'name is missing' });
      const badPriority = await put({ name: 'label1', priority: 'high' });
      expect(badPriority.status).to.equal(400);
      expect(badPriority.body).to.deep.equal({ error: 'priority is invalid' });
    });

    it("answers 10.8's odd 404 for an unknown label", async () => {
      const r = await put({ name: 'label2', new_name: 'label3' });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Label not found Not Found' });
    });

    it('answers 400 with the model errors and changes nothing', async () => {
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ name: 'label1', new_name: ',', color: '#FFFFFF' }, { title: ['is invalid'] }],
        [{ name: 'label1', color: '#FF' }, { color: ['must be a valid color code'] }],
        [{ name: 'label1', color: '' }, { color: ['must be a valid color code'] }],
        [{ name: 'label1', new_name: 'bug' }, { title: ['has already been taken'] }],
        [{ name: 'label1', priority: -2 }, { priority: ['must be greater than or equal to 0'] }],
      ];
      for (const [json, message] of cases) {
        const r = await put(json);
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body).to.deep.equal({ message });
      }
      const after = (await s.get(p.path, { token: owner.token })).body;
      expect(after.map((l: { name: string; color: string; priority: number | null }) => [l.name, l.color, l.priority])).to.deep.equal([
        ['bug', '#FFAABB', 3],
        ['label1', '#FFAABB', null],
      ]);
    });
  });

  describe('DELETE /projects/:id/labels', () => {
    let p: { id: number; path: string };
    beforeEach(async () => {
      p = await project();
      await label(p.path, 'label1');
    });

    it('deletes by name with 204', async () => {
      const r = await s.delete(p.path, { token: reporter.token, json: { name: 'label1' } });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect((await s.get(p.path, { token: owner.token })).body).to.deep.equal([]);
    });

    it('accepts the name in the query string', async () => {
      const r = await s.delete(p.path, { token: reporter.token, query: { name: 'label1' } });
      expect(r.status).to.equal(204);
    });

    it('answers 404 Label Not Found for an unknown name, and 400 without one', async () => {
      const missing = await s.delete(p.path, { token: reporter.token, json: { name: 'label2' } });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(LABEL_NOT_FOUND);
      const none = await s.delete(p.path, { token: reporter.token });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'name is missing' });
    });

    it('answers 412 when If-Unmodified-Since is older than the label', async () => {
      const r = await s.delete(p.path, {
        token: reporter.token,
        json: { name: 'label1' },
        headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' },
      });
      expect(r.status).to.equal(412);
      expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
      const later = await s.delete(p.path, {
        token: reporter.token,
        json: { name: 'label1' },
        headers: { 'If-Unmodified-Since': new Date(Date.now() + 60_000).toUTCString() },
      });
      expect(later.status).to.equal(204);
    });
  });

  describe('GET and DELETE /projects/:id/labels/:label_id (later GitLab, used by python-gitlab 3.x)', () => {
    let p: { id: number; path: string };
    let l1: { id: number };
    beforeEach(async () => {
      p = await project();
      l1 = await label(p.path, 'label 1', { priority: 1 });
    });

    it('reads one label by id or title', async () => {
      for (const key of [String(l1.id), encodeURIComponent('label 1')]) {
        const r = await s.get(`${p.path}/${key}`, { token: guest.token });
        expect(r.status, key).to.equal(200);
        expect(r.body).to.include({ id: l1.id, name: 'label 1', priority: 1, subscribed: false });
      }
      const anon = await s.get(`${p.path}/${l1.id}`, { token: null });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal(UNAUTHORIZED);
      const missing = await s.get(`${p.path}/nope`, { token: guest.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(LABEL_NOT_FOUND);
    });

    it('deletes one label by id or title, for reporters and up', async () => {
      const byGuest = await s.delete(`${p.path}/${l1.id}`, { token: guest.token });
      expect(byGuest.status).to.equal(403);
      expect(byGuest.body).to.deep.equal(FORBIDDEN);
      expect((await s.delete(`${p.path}/${l1.id}`, { token: reporter.token })).status).to.equal(204);
      await label(p.path, 'two');
      expect((await s.delete(`${p.path}/two`, { token: reporter.token })).status).to.equal(204);
      expect((await s.get(p.path, { token: owner.token })).body).to.deep.equal([]);
      const missing = await s.delete(`${p.path}/two`, { token: reporter.token });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(LABEL_NOT_FOUND);
    });
  });

  describe('POST /projects/:id/labels/:label_id/subscribe and /unsubscribe', () => {
    let p: { id: number; path: string };
    let l1: { id: number };
    beforeEach(async () => {
      p = await project();
      l1 = await label(p.path, 'label 1');
    });

    it('subscribes by title and unsubscribes by id, 304 when nothing changes', async () => {
      const sub = await s.post(`${p.path}/${encodeURIComponent('label 1')}/subscribe`, { token: reporter.token });
      expect(sub.status).to.equal(201);
      expect(sub.body).to.include({ name: 'label 1', subscribed: true });
      expect(Object.keys(sub.body)).to.have.members(KEYS);
      const again = await s.post(`${p.path}/${l1.id}/subscribe`, { token: reporter.token });
      expect(again.status).to.equal(304);
      expect(again.text).to.equal('');

      const unsub = await s.post(`${p.path}/${l1.id}/unsubscribe`, { token: reporter.token });
      expect(unsub.status).to.equal(201);
      expect(unsub.body).to.include({ name: 'label 1', subscribed: false });
      const unsubAgain = await s.post(`${p.path}/${l1.id}/unsubscribe`, { token: reporter.token });
      expect(unsubAgain.status).to.equal(304);
    });

    it('prefers the id and falls back to a title that looks like a number', async () => {
      const numeric = await label(p.path, '999999');
      const r = await s.post(`${p.path}/999999/subscribe`, { token: reporter.token });
      expect(r.status).to.equal(201);
      expect(r.body.id).to.equal(numeric.id);
    });

    it('answers 404 Label Not Found for an unknown label or one of another project', async () => {
      const other = await project();
      const foreign = await label(other.path, 'foreign');
      for (const key of ['1234567', 'nope', String(foreign.id)]) {
        for (const action of ['subscribe', 'unsubscribe']) {
          const r = await s.post(`${p.path}/${key}/${action}`, { token: reporter.token });
          expect(r.status, `${key} ${action}`).to.equal(404);
          expect(r.body).to.deep.equal(LABEL_NOT_FOUND);
        }
      }
    });
  });

  describe('deletion of what labels hang off', () => {
    it("removes a deleted project's labels and a deleted user's subscriptions", async () => {
      const p = await project();
      const l = await label(p.path, 'gone');
      const temp = (await s.createUser('temp')) as Account;
      await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: temp.user.id, accessLevel: GUEST });
      expect((await s.post(`${p.path}/gone/subscribe`, { token: temp.token })).status).to.equal(201);
      const del = await s.delete(`/users/${temp.user.id}`, { token: admin.token });
      expect(del.status, del.text).to.equal(204);
      expect(await s.db('label_subscriptions').where({ label_id: l.id })).to.deep.equal([]);

      const gone = await s.delete(`/projects/${p.id}`, { token: owner.token });
      expect(gone.status).to.equal(202);
      expect(await s.db('labels').where({ project_id: p.id })).to.deep.equal([]);
    });
  });
});
