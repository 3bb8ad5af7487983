// Award emoji on issues and notes (GitLab 10.8 lib/api/award_emoji.rb, Awardable, AwardEmoji):
// authentication, the entity, name normalisation and validation with GitLab's odd 404 bodies,
// no votes on one's own work, removal rights (401 for others' awards), unreadable targets,
// archived projects, and the votes the issue entity shows.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';

type Project = { id: number; issues: string };

const UNAUTHORIZED = { message: '401 Unauthorized' };
const NOT_FOUND = { message: '404 Not found' };
const AWARD_NOT_FOUND = { message: '404 Award Emoji Not Found' };
const AWARD_KEYS = ['id', 'name', 'user', 'created_at', 'updated_at', 'awardable_id', 'awardable_type'];

describe('Award emoji', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(visibility = 'private'): Promise<Project> {
    const { id } = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `aw${++counter}`, visibility });
    return { id, issues: `/projects/${id}/issues` };
  }

  async function issue(p: Project, body: Record<string, unknown> = {}, token = owner.token) {
    const r = await s.post(p.issues, { token, json: { title: 'awardable', ...body } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  async function award(path: string, name: string, token: string) {
    const r = await s.post(path, { token, json: { name } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  it('answers 401 to anonymous requests on every route', async () => {
    const p = await project('public');
    const i = await issue(p);
    const n = (await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: { body: 'n' } })).body;
    for (const base of [`${p.issues}/${i.iid}/award_emoji`, `${p.issues}/${i.iid}/notes/${n.id}/award_emoji`, `/projects/${p.id}/merge_requests/1/award_emoji`]) {
      for (const [method, path] of [
        ['GET', base],
        ['GET', `${base}/1`],
        ['POST', base],
        ['DELETE', `${base}/1`],
      ]) {
        const r = await s.request(method, path, { token: null, json: method === 'POST' ? { name: 'smile' } : undefined });
        expect(r.status, `${method} ${path}`).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
    }
  });

  describe('on issues', () => {
    let p: Project;
    let i: { id: number; iid: number };
    let base: string;
    before(async () => {
      p = await project();
      i = await issue(p);
      base = `${p.issues}/${i.iid}/award_emoji`;
    });

    it('awards (201) in the AwardEmoji shape, normalising aliases, and counts votes on the issue', async () => {
      const r = await s.post(base, { token: guest.token, json: { name: 'thumbsup' } });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(AWARD_KEYS);
      expect(r.body).to.include({ name: 'thumbsup', awardable_id: i.id, awardable_type: 'Issue' });
      expect(r.body.user).to.deep.include({ id: guest.user.id, username: 'guest' });
      expect(Object.keys(r.body.user)).to.deep.equal(['id', 'name', 'username', 'state', 'avatar_url', 'web_url']);
      const alias = await award(base, '+1', dev.token);
      expect(alias.name).to.equal('thumbsup');
      await award(base, 'thumbsdown', reporter.token);
      const got = await s.get(`${p.issues}/${i.iid}`, { token: owner.token });
      expect(got.body).to.include({ upvotes: 2, downvotes: 1 });
    });

    it("answers GitLab's 404 with the model errors for a duplicate or an unknown name", async () => {
      await award(base, 'tada', master.token);
      const dup = await s.post(base, { token: master.token, json: { name: 'tada' } });
      expect(dup.status).to.equal(404);
      expect(dup.body).to.deep.equal({ message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' });
      const unknown = await s.post(base, { token: master.token, json: { name: 'not_an_emoji' } });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({ message: '404 Award Emoji {:name=>["is not included in the list"]} Not Found' });
      const blank = await s.post(base, { token: master.token, json: { name: '' } });
      expect(blank.status).to.equal(404);
      expect(blank.body).to.deep.equal({ message: '404 Award Emoji {:name=>["can\'t be blank", "is not included in the list"]} Not Found' });
      const missing = await s.post(base, { token: master.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'name is missing' });
    });

    it('accepts the common names', async () => {
      const p2 = await project();
      const i2 = await issue(p2);
      for (const name of ['smile', 'heart', 'rocket', 'eyes', '100', 'white_check_mark', 'thinking', 'laughing', 'confused']) {
        await award(`${p2.issues}/${i2.iid}/award_emoji`, name, dev.token);
      }
    });

    it('refuses votes on what the user authored (404 Award Emoji Not Found), other emoji are fine', async () => {
      for (const name of ['thumbsup', 'thumbsdown', '-1']) {
        const r = await s.post(base, { token: owner.token, json: { name } });
        expect(r.status, name).to.equal(404);
        expect(r.body).to.deep.equal(AWARD_NOT_FOUND);
      }
      await award(base, 'smile', owner.token);
    });

    it('lists in award order with paging, and shows one', async () => {
      const list = await s.get(base, { token: guest.token, query: { per_page: 2 } });
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-total')).to.equal(
        String(
          await s
            .db('award_emoji')
            .where({ awardable_type: 'Issue', awardable_id: i.id })
            .count({ n: '*' })
            .first()
            .then((r) => (r as { n: number }).n),
        ),
      );
      expect(list.body).to.have.length(2);
      expect(list.body[0].id < list.body[1].id).to.equal(true);
      const one = await s.get(`${base}/${list.body[1].id}`, { token: guest.token });
      expect(one.status).to.equal(200);
      expect(one.body).to.deep.equal(list.body[1]);
    });

    it('answers 404 Not found for an unknown award, issue or note, and 400 for a non-integer id', async () => {
      const other = await issue(p);
      const foreign = await award(`${p.issues}/${other.iid}/award_emoji`, 'eyes', dev.token);
      for (const path of [`${base}/999999`, `${base}/${foreign.id}`, `${p.issues}/999/award_emoji`, `${p.issues}/${i.iid}/notes/999999/award_emoji`]) {
        const r = await s.get(path, { token: owner.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
      const del = await s.delete(`${base}/${foreign.id}`, { token: dev.token });
      expect(del.status).to.equal(404);
      expect(del.body).to.deep.equal(NOT_FOUND);
      const bad = await s.get(`${p.issues}/x/award_emoji`, { token: owner.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'issue_iid is invalid' });
    });

    it("lets only the award's owner or an admin remove it (others: 401)", async () => {
      const mine = await award(base, 'rocket', guest.token);
      for (const who of [master, owner, dev]) {
        const r = await s.delete(`${base}/${mine.id}`, { token: who.token });
        expect(r.status, who.user.username).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
      const own = await s.delete(`${base}/${mine.id}`, { token: guest.token });
      expect(own.status).to.equal(204);
      const again = await s.get(`${base}/${mine.id}`, { token: guest.token });
      expect(again.status).to.equal(404);
      const theirs = await award(base, 'rocket', dev.token);
      const byAdmin = await s.delete(`${base}/${theirs.id}`, { token: admin.token });
      expect(byAdmin.status).to.equal(204);
    });

    it('answers 412 to a delete with an older If-Unmodified-Since', async () => {
      const a = await award(base, 'sunny', dev.token);
      const r = await s.delete(`${base}/${a.id}`, { token: dev.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(r.status).to.equal(412);
    });
  });

  describe('on notes', () => {
    it('awards, lists, shows and removes awards of a note', async () => {
      const p = await project();
      const i = await issue(p);
      const n = (await s.post(`${p.issues}/${i.iid}/notes`, { token: dev.token, json: { body: 'nice' } })).body;
      const base = `${p.issues}/${i.iid}/notes/${n.id}/award_emoji`;
      const a = await award(base, 'thumbsup', guest.token);
      expect(a).to.include({ name: 'thumbsup', awardable_id: n.id, awardable_type: 'Note' });
      // The note's author may not vote on it; the issue's author may.
      const self = await s.post(base, { token: dev.token, json: { name: 'thumbsup' } });
      expect(self.status).to.equal(404);
      expect(self.body).to.deep.equal(AWARD_NOT_FOUND);
      await award(base, 'thumbsup', owner.token);
      const list = await s.get(base, { token: reporter.token });
      expect(list.body.map((x: { user: { id: number } }) => x.user.id)).to.deep.equal([guest.user.id, owner.user.id]);
      const one = await s.get(`${base}/${a.id}`, { token: reporter.token });
      expect(one.body).to.deep.equal(a);
      // The note's awards are not the issue's.
      const issueAwards = await s.get(`${p.issues}/${i.iid}/award_emoji`, { token: reporter.token });
      expect(issueAwards.body).to.deep.equal([]);
      expect((await s.delete(`${base}/${a.id}`, { token: guest.token })).status).to.equal(204);
      // Deleting the note takes its awards along.
      expect((await s.delete(`${p.issues}/${i.iid}/notes/${n.id}`, { token: dev.token })).status).to.equal(204);
      expect(await s.db('award_emoji').where({ awardable_type: 'Note', awardable_id: n.id })).to.have.length(0);
    });
  });

  describe('unreadable targets and archived projects', () => {
    it('answers 404 Award Emoji Not Found on a confidential issue the user may not read', async () => {
      const p = await project('public');
      const i = await issue(p, { title: 'secret', confidential: true });
      const a = await award(`${p.issues}/${i.iid}/award_emoji`, 'eyes', reporter.token);
      const n = (await s.post(`${p.issues}/${i.iid}/notes`, { token: reporter.token, json: { body: 'psst' } })).body;
      for (const base of [`${p.issues}/${i.iid}/award_emoji`, `${p.issues}/${i.iid}/notes/${n.id}/award_emoji`]) {
        for (const who of [guest, stranger]) {
          for (const [method, path] of [
            ['GET', base],
            ['GET', `${base}/${a.id}`],
            ['POST', base],
            ['DELETE', `${base}/${a.id}`],
          ]) {
            const r = await s.request(method, path, { token: who.token, json: method === 'POST' ? { name: 'smile' } : undefined });
            expect(r.status, `${who.user.username} ${method} ${path}`).to.equal(404);
            expect(r.body).to.deep.equal(AWARD_NOT_FOUND);
          }
        }
      }
    });

    it('lets signed-in users award on public projects, nobody on archived ones', async () => {
      const p = await project('public');
      const i = await issue(p);
      await award(`${p.issues}/${i.iid}/award_emoji`, 'clap', stranger.token);
      expect((await s.post(`/projects/${p.id}/archive`, { token: owner.token })).status).to.equal(201);
      for (const who of [stranger, guest, admin]) {
        const r = await s.post(`${p.issues}/${i.iid}/award_emoji`, { token: who.token, json: { name: 'wave' } });
        expect(r.status, who.user.username).to.equal(404);
        expect(r.body).to.deep.equal(AWARD_NOT_FOUND);
      }
      const list = await s.get(`${p.issues}/${i.iid}/award_emoji`, { token: stranger.token });
      expect(list.status).to.equal(200);
      expect(list.body).to.have.length(1);
    });
  });
  it("marks the awarder's pending todos on the issue done", async () => {
    const p = await project();
    const i = await issue(p);
    const n = (await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: { body: 'note' } })).body;
    for (const [who, path] of [
      [guest, `${p.issues}/${i.iid}/award_emoji`],
      [dev, `${p.issues}/${i.iid}/notes/${n.id}/award_emoji`],
    ] as const) {
      const todo = await s.post(`${p.issues}/${i.iid}/todo`, { token: who.token });
      expect(todo.status, todo.text).to.equal(201);
      expect((await s.get('/todos', { token: who.token })).body).to.have.length(1);
      await award(path, 'star', who.token);
      expect((await s.get('/todos', { token: who.token })).body).to.have.length(0);
    }
  });
});
