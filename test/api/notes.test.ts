// Notes on issues and merge requests (GitLab 10.8 lib/api/notes.rb, NotesHelpers, NotePolicy,
// Notes::Create/Update/DestroyService): authentication, the entity and its schema, ordering
// and paging, create/edit/delete rights, confidential issues, locked discussions, archived
// projects, user_notes_count, the commented event, the noteable's touch, and the Ghost User.
import { expect } from 'chai';
import { useServerWithRoles, addProjectMembers, projectWithRoles } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { GUEST } from '../../src/policy/levels.js';

type Project = { id: number; issues: string };

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const NOT_FOUND = { message: '404 Not found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const NOTE_KEYS = ['id', 'type', 'body', 'attachment', 'author', 'created_at', 'updated_at', 'system', 'noteable_id', 'noteable_type', 'resolvable', 'noteable_iid'];

describe('Notes', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(visibility = 'private'): Promise<Project> {
    const { id } = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `nt${++counter}`, visibility });
    return { id, issues: `/projects/${id}/issues` };
  }

  async function issue(p: Project, body: Record<string, unknown> = {}, token = owner.token) {
    const r = await s.post(p.issues, { token, json: { title: 'an issue', ...body } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  async function note(p: Project, iid: number, body: string, token = owner.token) {
    const r = await s.post(`${p.issues}/${iid}/notes`, { token, json: { body } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  async function getIssue(p: Project, iid: number) {
    const r = await s.get(`${p.issues}/${iid}`, { token: owner.token });
    expect(r.status, r.text).to.equal(200);
    return r.body;
  }

  describe('authentication and lookups', () => {
    let pub: Project;
    let n: { id: number };
    before(async () => {
      pub = await project('public');
      await issue(pub);
      n = await note(pub, 1, 'hello');
    });

    it('answers 401 to anonymous requests on every route, even on a public project', async () => {
      const base = `${pub.issues}/1/notes`;
      const calls: [string, string][] = [
        ['GET', base],
        ['GET', `${base}/${n.id}`],
        ['POST', base],
        ['PUT', `${base}/${n.id}`],
        ['DELETE', `${base}/${n.id}`],
        ['GET', `/projects/${pub.id}/merge_requests/1/notes`],
        ['POST', `/projects/${pub.id}/merge_requests/1/notes`],
      ];
      for (const [method, path] of calls) {
        const r = await s.request(method, path, { token: null, json: method === 'GET' ? undefined : { body: 'x' } });
        expect(r.status, `${method} ${path}`).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
    });

    it('hides a private project from non-members', async () => {
      const priv = await project();
      await issue(priv);
      for (const [method, path] of [
        ['GET', `${priv.issues}/1/notes`],
        ['POST', `${priv.issues}/1/notes`],
      ]) {
        const r = await s.request(method, path, { token: stranger.token, json: method === 'POST' ? { body: 'x' } : undefined });
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
      }
    });

    it('answers 404 Not found for an unknown issue or merge request, and 400 for a non-integer id', async () => {
      for (const path of [`${pub.issues}/99/notes`, `${pub.issues}/99/notes/${n.id}`, `/projects/${pub.id}/merge_requests/99/notes`]) {
        const r = await s.get(path, { token: owner.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
      const r = await s.post(`${pub.issues}/99/notes`, { token: owner.token, json: { body: 'x' } });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      const bad = await s.get(`${pub.issues}/abc/notes`, { token: owner.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'noteable_id is invalid' });
      const badNote = await s.get(`${pub.issues}/1/notes/abc`, { token: owner.token });
      expect(badNote.status).to.equal(400);
      expect(badNote.body).to.deep.equal({ error: 'note_id is invalid' });
    });

    it('validates the parameters before looking the noteable up, as Grape does', async () => {
      const missing = await s.post(`${pub.issues}/99/notes`, { token: owner.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'body is missing' });
      const both = await s.put(`${pub.issues}/abc/notes/${n.id}`, { token: owner.token, json: {} });
      expect(both.status).to.equal(400);
      expect(both.body).to.deep.equal({ error: 'noteable_id is invalid, body is missing' });
    });

    it('answers 404 Not found for an unknown note or a note of another issue', async () => {
      await issue(pub, { title: 'second' });
      const other = await note(pub, 2, 'elsewhere');
      for (const id of [999999, other.id]) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const r = await s.request(method, `${pub.issues}/1/notes/${id}`, { token: owner.token, json: method === 'PUT' ? { body: 'x' } : undefined });
          expect(r.status, `${method} ${id}`).to.equal(404);
          expect(r.body).to.deep.equal(NOT_FOUND);
        }
      }
    });
  });

  describe('create', () => {
    let p: Project;
    before(async () => {
      p = await project();
    });

    it("creates a note (201) in GitLab 10.8's Note shape and schema", async () => {
      const i = await issue(p);
      const r = await s.post(`${p.issues}/${i.iid}/notes`, { token: guest.token, json: { body: 'first!' } });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(NOTE_KEYS);
      expect(r.body).to.include({ type: null, body: 'first!', attachment: null, system: false, noteable_id: i.id, noteable_type: 'Issue', resolvable: false, noteable_iid: i.iid });
      expect(r.body.author).to.deep.include({ id: guest.user.id, username: 'guest', state: 'active' });
      expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(r.body.updated_at).to.equal(r.body.created_at);
      expectSchema([r.body], 'public_api/v4/notes.json');
    });

    it('counts user notes on the issue and records a commented event', async () => {
      const i = await issue(p);
      expect(i.user_notes_count).to.equal(0);
      const n1 = await note(p, i.iid, 'one', dev.token);
      await note(p, i.iid, 'two', reporter.token);
      expect((await getIssue(p, i.iid)).user_notes_count).to.equal(2);
      const events = await s.db('events').where({ target_type: 'Note', target_id: n1.id });
      expect(events).to.have.length(1);
      expect(events[0]).to.include({ action: 6, author_id: dev.user.id, project_id: p.id });
    });

    it('answers 400 when the body is missing or blank', async () => {
      const i = await issue(p);
      const missing = await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'body is missing' });
      for (const body of ['', '   ']) {
        const r = await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: { body } });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ message: '400 (Bad request) "Note {:note=>["can\'t be blank"]}" not given' });
      }
      expect((await getIssue(p, i.iid)).user_notes_count).to.equal(0);
    });

    it('takes created_at from admins and the project owner only', async () => {
      const i = await issue(p);
      const when = '2018-01-02T03:04:05.000Z';
      for (const who of [owner, admin]) {
        const r = await s.post(`${p.issues}/${i.iid}/notes`, { token: who.token, json: { body: 'back then', created_at: when } });
        expect(r.status).to.equal(201);
        expect(r.body.created_at).to.equal(when);
      }
      const r = await s.post(`${p.issues}/${i.iid}/notes`, { token: master.token, json: { body: 'now', created_at: when } });
      expect(r.status).to.equal(201);
      expect(r.body.created_at).to.not.equal(when);
      const junk = await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: { body: 'junk time', created_at: 'yesterday-ish' } });
      expect(junk.status).to.equal(201);
      expect(junk.body.created_at).to.not.equal(when);
      // A string Time.zone.parse reads (Rails casts created_at with it), in its own offset.
      const rfc = await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: { body: 'rfc time', created_at: 'Tue, 02 Jan 2018 05:04:05 +0200' } });
      expect(rfc.status).to.equal(201);
      expect(rfc.body.created_at).to.equal(when);
    });

    it("touches the issue's updated_at, at most once a minute", async () => {
      const old = '2018-01-01T00:00:00.000Z';
      const i = await issue(p, { created_at: old });
      expect(i.updated_at).to.equal(old);
      await note(p, i.iid, 'wake up');
      const touched = (await getIssue(p, i.iid)).updated_at;
      expect(touched > old).to.equal(true);
      await note(p, i.iid, 'again');
      expect((await getIssue(p, i.iid)).updated_at).to.equal(touched);
    });

    it('lets any signed-in user comment on a public project, not on an archived one', async () => {
      const pub = await project('public');
      const i = await issue(pub);
      const r = await s.post(`${pub.issues}/${i.iid}/notes`, { token: stranger.token, json: { body: 'drive-by' } });
      expect(r.status).to.equal(201);
      const own = await s.put(`${pub.issues}/${i.iid}/notes/${r.body.id}`, { token: stranger.token, json: { body: 'drive-by, edited' } });
      expect(own.status).to.equal(200);
      const arch = await s.post(`/projects/${pub.id}/archive`, { token: owner.token });
      expect(arch.status, arch.text).to.equal(201);
      for (const who of [stranger, owner, admin]) {
        const x = await s.post(`${pub.issues}/${i.iid}/notes`, { token: who.token, json: { body: 'frozen' } });
        expect(x.status).to.equal(403);
        expect(x.body).to.deep.equal(FORBIDDEN);
      }
      const edit = await s.put(`${pub.issues}/${i.iid}/notes/${r.body.id}`, { token: stranger.token, json: { body: 'thawed?' } });
      expect(edit.status).to.equal(403);
      const del = await s.delete(`${pub.issues}/${i.iid}/notes/${r.body.id}`, { token: owner.token });
      expect(del.status).to.equal(403);
      // Reading still works.
      const list = await s.get(`${pub.issues}/${i.iid}/notes`, { token: stranger.token });
      expect(list.status).to.equal(200);
      expect(list.body).to.have.length(1);
    });
  });

  describe('list and single', () => {
    let p: Project;
    let iid: number;
    const ids: number[] = [];
    before(async () => {
      p = await project();
      iid = (await issue(p)).iid;
      for (const body of ['a', 'b', 'c']) ids.push((await note(p, iid, body)).id);
      // Editing the first one makes it the most recently updated.
      const r = await s.put(`${p.issues}/${iid}/notes/${ids[0]}`, { token: owner.token, json: { body: 'a2' } });
      expect(r.status).to.equal(200);
    });

    it('lists newest first by default, with the schema and paging headers', async () => {
      const r = await s.get(`${p.issues}/${iid}/notes`, { token: guest.token });
      expect(r.status).to.equal(200);
      expect(r.body.map((n: { id: number }) => n.id)).to.deep.equal([...ids].reverse());
      expectSchema(r.body, 'public_api/v4/notes.json');
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.headers.get('x-per-page')).to.equal('20');
    });

    it('sorts ascending and by updated_at on request, and pages', async () => {
      const asc = await s.get(`${p.issues}/${iid}/notes`, { token: guest.token, query: { sort: 'asc' } });
      expect(asc.body.map((n: { id: number }) => n.id)).to.deep.equal(ids);
      const upd = await s.get(`${p.issues}/${iid}/notes`, { token: guest.token, query: { order_by: 'updated_at' } });
      expect(upd.body.map((n: { id: number }) => n.id)).to.deep.equal([ids[0], ids[2], ids[1]]);
      const page = await s.get(`${p.issues}/${iid}/notes`, { token: guest.token, query: { sort: 'asc', per_page: 2, page: 2 } });
      expect(page.body.map((n: { id: number }) => n.id)).to.deep.equal([ids[2]]);
      expect(page.headers.get('x-total-pages')).to.equal('2');
    });

    it('refuses unknown sort and order_by values', async () => {
      const sort = await s.get(`${p.issues}/${iid}/notes`, { token: guest.token, query: { sort: 'up' } });
      expect(sort.status).to.equal(400);
      expect(sort.body).to.deep.equal({ error: 'sort does not have a valid value' });
      const order = await s.get(`${p.issues}/${iid}/notes`, { token: guest.token, query: { order_by: 'id' } });
      expect(order.status).to.equal(400);
      expect(order.body).to.deep.equal({ error: 'order_by does not have a valid value' });
    });

    it('shows one note', async () => {
      const r = await s.get(`${p.issues}/${iid}/notes/${ids[1]}`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ id: ids[1], body: 'b', noteable_iid: iid });
    });
  });

  describe('edit and delete', () => {
    let p: Project;
    before(async () => {
      p = await project();
    });

    it('lets the author edit (200); updated_at moves', async () => {
      const i = await issue(p);
      const n = await note(p, i.iid, 'draft', guest.token);
      const r = await s.put(`${p.issues}/${i.iid}/notes/${n.id}`, { token: guest.token, json: { body: 'final' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ id: n.id, body: 'final', created_at: n.created_at });
      expect(r.body.updated_at >= n.updated_at).to.equal(true);
      expectSchema([r.body], 'public_api/v4/notes.json');
    });

    it("lets masters and admins edit and delete others' notes, not developers or reporters", async () => {
      const i = await issue(p);
      const n = await note(p, i.iid, 'mine', guest.token);
      for (const who of [dev, reporter, stranger]) {
        const put = await s.put(`${p.issues}/${i.iid}/notes/${n.id}`, { token: who.token, json: { body: 'theirs' } });
        const del = await s.delete(`${p.issues}/${i.iid}/notes/${n.id}`, { token: who.token });
        if (who === stranger) {
          expect(put.status).to.equal(404);
          expect(put.body).to.deep.equal(PROJECT_NOT_FOUND);
          continue;
        }
        expect(put.status, who.user.username).to.equal(403);
        expect(put.body).to.deep.equal(FORBIDDEN);
        expect(del.status).to.equal(403);
        expect(del.body).to.deep.equal(FORBIDDEN);
      }
      for (const who of [master, admin]) {
        const put = await s.put(`${p.issues}/${i.iid}/notes/${n.id}`, { token: who.token, json: { body: `by ${who.user.username}` } });
        expect(put.status).to.equal(200);
        expect(put.body.body).to.equal(`by ${who.user.username}`);
        expect(put.body.author.id).to.equal(guest.user.id);
      }
      const del = await s.delete(`${p.issues}/${i.iid}/notes/${n.id}`, { token: master.token });
      expect(del.status).to.equal(204);
    });

    it('answers 400 on edit without a body or with a blank one', async () => {
      const i = await issue(p);
      const n = await note(p, i.iid, 'x');
      const missing = await s.put(`${p.issues}/${i.iid}/notes/${n.id}`, { token: owner.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'body is missing' });
      const blank = await s.put(`${p.issues}/${i.iid}/notes/${n.id}`, { token: owner.token, json: { body: ' ' } });
      expect(blank.status).to.equal(400);
      expect(blank.body).to.deep.equal({ message: '400 (Bad request) "Failed to save note {:note=>["can\'t be blank"]}" not given' });
    });

    it('deletes (204), takes the count down, removes the event, then answers 404', async () => {
      const i = await issue(p);
      const n = await note(p, i.iid, 'bye', dev.token);
      await note(p, i.iid, 'stays', dev.token);
      expect((await getIssue(p, i.iid)).user_notes_count).to.equal(2);
      const r = await s.delete(`${p.issues}/${i.iid}/notes/${n.id}`, { token: dev.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect((await getIssue(p, i.iid)).user_notes_count).to.equal(1);
      expect(await s.db('events').where({ target_type: 'Note', target_id: n.id })).to.have.length(0);
      const again = await s.delete(`${p.issues}/${i.iid}/notes/${n.id}`, { token: dev.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal(NOT_FOUND);
    });

    it('answers 412 to a delete with an older If-Unmodified-Since', async () => {
      const i = await issue(p);
      const n = await note(p, i.iid, 'guarded');
      const r = await s.delete(`${p.issues}/${i.iid}/notes/${n.id}`, { token: owner.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(r.status).to.equal(412);
      expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
    });

    it('never edits or deletes a system note, and does not count it', async () => {
      const i = await issue(p);
      const t = await s.post(`${p.issues}/${i.iid}/time_estimate`, { token: owner.token, json: { duration: '1h' } });
      expect(t.status).to.equal(200);
      const list = await s.get(`${p.issues}/${i.iid}/notes`, { token: owner.token });
      expect(list.body).to.have.length(1);
      expect(list.body[0]).to.include({ system: true, body: 'changed time estimate to 1h' });
      expect(list.body[0].author.id).to.equal(owner.user.id);
      expect((await getIssue(p, i.iid)).user_notes_count).to.equal(0);
      for (const who of [owner, admin]) {
        const put = await s.put(`${p.issues}/${i.iid}/notes/${list.body[0].id}`, { token: who.token, json: { body: 'rewrite' } });
        expect(put.status).to.equal(403);
        const del = await s.delete(`${p.issues}/${i.iid}/notes/${list.body[0].id}`, { token: who.token });
        expect(del.status).to.equal(403);
      }
    });

    it('shows the Ghost User for a deleted author', async () => {
      const gone = await s.createUser('gone');
      await addProjectMembers(s, p.id, [[gone, GUEST]]);
      const i = await issue(p);
      const n = await note(p, i.iid, 'farewell', gone.token);
      const del = await s.delete(`/users/${gone.user.id}`, { token: admin.token });
      expect(del.status, del.text).to.equal(204);
      const r = await s.get(`${p.issues}/${i.iid}/notes/${n.id}`, { token: owner.token });
      expect(r.status).to.equal(200);
      expect(r.body.author).to.include({ id: 0, name: 'Ghost User', username: 'ghost' });
      expectSchema([r.body], 'public_api/v4/notes.json');
    });
  });

  describe('confidential issues', () => {
    let p: Project;
    let iid: number;
    before(async () => {
      p = await project('public');
      iid = (await issue(p, { title: 'secret', confidential: true })).iid;
      await note(p, iid, 'hush');
    });

    it('hides the notes of a confidential issue from those who may not read it (404 Not found)', async () => {
      for (const who of [guest, stranger]) {
        const calls: [string, string][] = [
          ['GET', `${p.issues}/${iid}/notes`],
          ['POST', `${p.issues}/${iid}/notes`],
        ];
        for (const [method, path] of calls) {
          const r = await s.request(method, path, { token: who.token, json: method === 'POST' ? { body: 'peek' } : undefined });
          expect(r.status, `${who.user.username} ${method}`).to.equal(404);
          expect(r.body).to.deep.equal(NOT_FOUND);
        }
      }
    });

    it('shows them to reporters and up, admins and the issue author', async () => {
      for (const who of [reporter, master, admin, owner]) {
        const r = await s.get(`${p.issues}/${iid}/notes`, { token: who.token });
        expect(r.status, who.user.username).to.equal(200);
        expect(r.body).to.have.length(1);
      }
      const own = await issue(p, { title: 'my secret', confidential: true }, guest.token);
      const r = await s.post(`${p.issues}/${own.iid}/notes`, { token: guest.token, json: { body: 'my own' } });
      expect(r.status).to.equal(201);
    });
  });

  describe('locked discussions', () => {
    let p: Project;
    let iid: number;
    let strangerNote: { id: number };
    before(async () => {
      p = await project('public');
      iid = (await issue(p)).iid;
      strangerNote = await note(p, iid, 'before the lock', stranger.token);
      const r = await s.put(`${p.issues}/${iid}`, { token: owner.token, json: { discussion_locked: true } });
      expect(r.status).to.equal(200);
      expect(r.body.discussion_locked).to.equal(true);
    });

    it('refuses comments and edits from non-members (403), admins included as in 10.8', async () => {
      for (const who of [stranger, admin]) {
        const r = await s.post(`${p.issues}/${iid}/notes`, { token: who.token, json: { body: 'let me in' } });
        expect(r.status, who.user.username).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      const put = await s.put(`${p.issues}/${iid}/notes/${strangerNote.id}`, { token: stranger.token, json: { body: 'edit' } });
      expect(put.status).to.equal(403);
      const del = await s.delete(`${p.issues}/${iid}/notes/${strangerNote.id}`, { token: stranger.token });
      expect(del.status).to.equal(403);
      // Reading is not locked.
      const list = await s.get(`${p.issues}/${iid}/notes`, { token: stranger.token });
      expect(list.status).to.equal(200);
    });

    it('lets members comment, guests included', async () => {
      for (const who of [guest, dev, owner]) {
        const r = await s.post(`${p.issues}/${iid}/notes`, { token: who.token, json: { body: `member ${who.user.username}` } });
        expect(r.status, who.user.username).to.equal(201);
      }
    });
  });

  describe('deleting the issue', () => {
    it('deletes its notes, their award emoji, its award emoji and its subscriptions', async () => {
      const p = await project();
      const i = await issue(p);
      const n = await note(p, i.iid, 'doomed', dev.token);
      expect((await s.post(`${p.issues}/${i.iid}/notes/${n.id}/award_emoji`, { token: guest.token, json: { name: 'tada' } })).status).to.equal(201);
      expect((await s.post(`${p.issues}/${i.iid}/award_emoji`, { token: guest.token, json: { name: 'heart' } })).status).to.equal(201);
      expect((await s.post(`${p.issues}/${i.iid}/subscribe`, { token: reporter.token })).status).to.equal(201);
      const del = await s.delete(`${p.issues}/${i.iid}`, { token: owner.token });
      expect(del.status).to.equal(204);
      expect(await s.db('notes').where({ noteable_type: 'Issue', noteable_id: i.id })).to.have.length(0);
      expect(await s.db('award_emoji').where({ awardable_type: 'Note', awardable_id: n.id })).to.have.length(0);
      expect(await s.db('award_emoji').where({ awardable_type: 'Issue', awardable_id: i.id })).to.have.length(0);
      expect(await s.db('subscriptions').where({ subscribable_type: 'Issue', subscribable_id: i.id })).to.have.length(0);
      expect(await s.db('events').where({ target_type: 'Note', target_id: n.id })).to.have.length(0);
    });
  });
  describe('todos', () => {
    it("marks the commenter's pending todos on the issue done, and mentions make todos", async () => {
      const p = await project();
      const i = await issue(p);
      const todo = await s.post(`${p.issues}/${i.iid}/todo`, { token: dev.token });
      expect(todo.status, todo.text).to.equal(201);
      await note(p, i.iid, 'on it', dev.token);
      expect((await s.get('/todos', { token: dev.token })).body).to.have.length(0);
      await note(p, i.iid, 'what do you think, @reporter?', owner.token);
      const mentioned = await s.get('/todos', { token: reporter.token });
      expect(mentioned.body.map((t: { target: { iid: number } }) => t.target.iid)).to.deep.equal([i.iid]);
      // An edit that adds a mention notifies the newly mentioned only.
      const n = await note(p, i.iid, 'plain', owner.token);
      const put = await s.put(`${p.issues}/${i.iid}/notes/${n.id}`, { token: owner.token, json: { body: 'plain, @master' } });
      expect(put.status).to.equal(200);
      expect((await s.get('/todos', { token: master.token })).body).to.have.length(1);
    });
  });
});
