// Project milestones (GitLab 10.8 lib/api/project_milestones.rb, milestone_responses.rb):
// the permission matrix, list filters, create/edit/delete rules with their Ruby-hash error
// messages, per-project iids, and the (still empty) issues and merge requests of a milestone.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';

type Project = { id: number; path: string };

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const NOT_FOUND = { message: '404 Not found' };
const TAKEN = 'already being used for another group or project milestone.';
const KEYS = ['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'due_date', 'start_date'];
const SCHEMA = 'public_api/v4/milestones.json';

describe('Project milestones', () => {
  const { s, owner, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(visibility = 'private'): Promise<Project> {
    const { id } = await projectWithRoles(s, owner, { dev, reporter, guest }, { name: `ms${++counter}`, visibility });
    return { id, path: `/projects/${id}/milestones` };
  }

  async function milestone(p: Project, title: string, extra: Record<string, unknown> = {}) {
    const r = await s.post(p.path, { token: dev.token, json: { title, ...extra } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  describe('permissions', () => {
    let priv: Project;
    let pub: Project;
    let privM: { id: number };
    let pubM: { id: number };
    before(async () => {
      priv = await project('private');
      pub = await project('public');
      privM = await milestone(priv, 'p');
      pubM = await milestone(pub, 'q');
    });

    const reads = (p: Project, m: { id: number }) => [p.path, `${p.path}/${m.id}`, `${p.path}/${m.id}/issues`, `${p.path}/${m.id}/merge_requests`];
    const writes = (p: Project, m: { id: number }): [string, string, unknown][] => [
      ['POST', p.path, { title: 'new' }],
      ['PUT', `${p.path}/${m.id}`, { description: 'changed' }],
      ['DELETE', `${p.path}/${m.id}`, undefined],
    ];

    it('needs a signed-in user for everything, even on a public project', async () => {
      for (const [p, m] of [
        [pub, pubM],
        [priv, privM],
      ] as const) {
        for (const path of reads(p, m)) {
          const r = await s.get(path, { token: null });
          expect(r.status, path).to.equal(401);
          expect(r.body).to.deep.equal(UNAUTHORIZED);
        }
        for (const [method, path, json] of writes(p, m)) {
          const r = await s.request(method, path, { token: null, json });
          expect(r.status, `${method} ${path}`).to.equal(401);
          expect(r.body).to.deep.equal(UNAUTHORIZED);
        }
      }
    });

    it('hides a private project from non-members (404)', async () => {
      for (const path of reads(priv, privM)) {
        const r = await s.get(path, { token: stranger.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
      }
      for (const [method, path, json] of writes(priv, privM)) {
        const r = await s.request(method, path, { token: stranger.token, json });
        expect(r.status, method).to.equal(404);
        expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
      }
    });

    it("lets any signed-in user read a public project's milestones, and guests a private one's", async () => {
      for (const [p, m, who] of [
        [pub, pubM, stranger],
        [priv, privM, guest],
        [priv, privM, reporter],
        [priv, privM, admin],
      ] as const) {
        for (const path of reads(p, m)) {
          const r = await s.get(path, { token: who.token });
          expect(r.status, `${who.user.username} ${path}`).to.equal(200);
        }
      }
    });

    it('refuses every milestone route with 403, to admins too, while issues and merge requests are both off', async () => {
      const off = await project('public');
      const m = await milestone(off, 'gone');
      const features = (on: boolean) => s.put(`/projects/${off.id}`, { token: owner.token, json: { issues_enabled: on, merge_requests_enabled: on } });
      expect((await features(false)).status).to.equal(200);
      for (const who of [owner, dev, admin]) {
        for (const path of reads(off, m)) {
          const r = await s.get(path, { token: who.token });
          expect(r.status, `${who.user.username} ${path}`).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
        for (const [method, path, json] of writes(off, m)) {
          const r = await s.request(method, path, { token: who.token, json });
          expect(r.status, `${method} ${path}`).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
      }
      // Either feature brings them back.
      expect((await s.put(`/projects/${off.id}`, { token: owner.token, json: { merge_requests_enabled: true } })).status).to.equal(200);
      expect((await s.get(off.path, { token: dev.token })).status).to.equal(200);
    });

    it('refuses writes below developer with 403, before looking at the parameters', async () => {
      for (const [p, m] of [
        [pub, pubM],
        [priv, privM],
      ] as const) {
        for (const who of [guest, reporter, ...(p === pub ? [stranger] : [])]) {
          for (const [method, path] of writes(p, m)) {
            const r = await s.request(method, path, { token: who.token }); // no parameters at all
            expect(r.status, `${who.user.username} ${method} ${path}`).to.equal(403);
            expect(r.body).to.deep.equal(FORBIDDEN);
          }
        }
      }
      expect((await s.get(`${priv.path}/${privM.id}`, { token: owner.token })).body.title).to.equal('p');
    });

    it('lets developers, the owner and admins write', async () => {
      for (const who of [dev, owner, admin]) {
        const created = await s.post(priv.path, { token: who.token, json: { title: `by ${who.user.username}` } });
        expect(created.status, who.user.username).to.equal(201);
        const edited = await s.put(`${priv.path}/${created.body.id}`, { token: who.token, json: { description: 'd' } });
        expect(edited.status).to.equal(200);
        const deleted = await s.delete(`${priv.path}/${created.body.id}`, { token: who.token });
        expect(deleted.status).to.equal(204);
      }
    });
  });

  describe('POST /projects/:id/milestones', () => {
    let p: Project;
    beforeEach(async () => {
      p = await project();
    });

    it('creates an active milestone with the next per-project iid (201, 10.8 entity)', async () => {
      const r = await s.post(p.path, { token: dev.token, json: { title: 'new milestone' } });
      expect(r.status).to.equal(201);
      expect(Object.keys(r.body)).to.have.members(KEYS);
      expect(r.body).to.include({ iid: 1, project_id: p.id, title: 'new milestone', description: null, state: 'active', due_date: null, start_date: null });
      expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expectSchema([r.body], SCHEMA);

      const second = await milestone(p, 'second', { description: 'release', due_date: '2013-03-02', start_date: '2013-02-02' });
      expect(second).to.include({ iid: 2, description: 'release', due_date: '2013-03-02', start_date: '2013-02-02' });
      expect(second.id).to.be.greaterThan(r.body.id);
      const elsewhere = await milestone(await project(), 'new milestone');
      expect(elsewhere.iid).to.equal(1);
    });

    it('never reuses an iid, even after the newest milestone is deleted', async () => {
      await milestone(p, 'one');
      const two = await milestone(p, 'two');
      expect((await s.delete(`${p.path}/${two.id}`, { token: dev.token })).status).to.equal(204);
      expect((await milestone(p, 'three')).iid).to.equal(3);
    });

    it('keeps reserved HTML characters, strips tags and surrounding blanks from the title', async () => {
      expect((await milestone(p, 'foo & bar 1.1 -> 2.2')).title).to.equal('foo & bar 1.1 -> 2.2');
      expect((await milestone(p, '  <em>v2</em> ')).title).to.equal('v2');
    });

    it('accepts a form body', async () => {
      const r = await s.post(p.path, { token: dev.token, form: { title: 'form', due_date: '2020-01-31', start_date: '' } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ title: 'form', due_date: '2020-01-31', start_date: null });
    });

    it("answers Grape's 400s for missing or malformed parameters", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'title is missing'],
        [{ description: 'x' }, 'title is missing'],
        [{ due_date: 'x' }, 'title is missing'],
      ];
      for (const [json, error] of cases) {
        const r = await s.post(p.path, { token: dev.token, json });
        expect(r.status, error).to.equal(400);
        expect(r.body).to.deep.equal({ error });
      }
    });

    it('reads the dates as Rails 4.2 casts a string to a date column (Date._parse)', async () => {
      const cases: [string, string | null][] = [
        ['2020-01-01T00:00:00Z', '2020-01-01'],
        ['2020-01-01T23:30:00-05:00', '2020-01-01'],
        ['2020-01-01 10:00:00 UTC', '2020-01-01'],
        ['2020/01/02', '2020-01-02'],
        ['Jan 3 2020', '2020-01-03'],
        ['4 January 2020', '2020-01-04'],
        ['20200105', '2020-01-05'],
        ['Mon, 06 Jan 2020 10:00:00 GMT', '2020-01-06'],
        ['07.01.2020', '2020-01-07'],
      ];
      for (const [given, stored] of cases) {
        const r = await s.post(p.path, { token: dev.token, json: { title: `d ${given}`, due_date: given, start_date: '2019-12-31T12:00:00+01:00' } });
        expect(r.status, given).to.equal(201);
        expect(r.body, given).to.include({ due_date: stored, start_date: '2019-12-31' });
        const back = await s.get(`${p.path}/${r.body.id}`, { token: dev.token });
        expect(back.body, given).to.include({ due_date: stored, start_date: '2019-12-31' });
      }
    });

    it('stores no date for what Rails cannot read, as 10.8 did, instead of refusing it', async () => {
      for (const given of ['2013-13-01', '2016-02-30', 'tomorrow', 'x', '12/31/2020']) {
        const r = await s.post(p.path, { token: dev.token, json: { title: `n ${given}`, due_date: given, start_date: given } });
        expect(r.status, given).to.equal(201);
        expect(r.body, given).to.include({ due_date: null, start_date: null });
      }
      // Form bodies are read the same way.
      const form = await s.post(p.path, { token: dev.token, form: { title: 'form dt', due_date: '2020-02-01T00:00:00Z' } });
      expect(form.status).to.equal(201);
      expect(form.body).to.include({ due_date: '2020-02-01' });
    });

    it('answers 400 with the model errors as a Ruby hash', async () => {
      await milestone(p, 'version1');
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 'version1', description: 'release', due_date: '2013-03-02' }, `{:title=>["${TAKEN}"]}`],
        [{ title: ' version1 ' }, `{:title=>["${TAKEN}"]}`],
        [{ title: 'd', due_date: '2013-03-01', start_date: '2013-03-02' }, '{:due_date=>["must be greater than start date"]}'],
        [{ title: 'd', due_date: '2013-03-02', start_date: '2013-03-02' }, '{:due_date=>["must be greater than start date"]}'],
        [{ title: 'version1', due_date: '2013-03-01', start_date: '2013-03-02' }, `{:title=>["${TAKEN}"], :due_date=>["must be greater than start date"]}`],
        [{ title: '   ' }, '{:title=>["can\'t be blank"]}'],
      ];
      for (const [json, errors] of cases) {
        const r = await s.post(p.path, { token: dev.token, json });
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body).to.deep.equal({ message: `Failed to create milestone ${errors}` });
      }
      expect((await s.get(p.path, { token: dev.token })).body).to.have.length(1);
      // A refused create burns no iid.
      expect((await milestone(p, 'next')).iid).to.equal(2);
    });

    it('answers 404 for an unknown project', async () => {
      const r = await s.post('/projects/999999/milestones', { token: dev.token, json: { title: 'x' } });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
    });
  });

  describe('GET /projects/:id/milestones', () => {
    let p: Project;
    let closed: { id: number; iid: number };
    let open: { id: number; iid: number };
    let third: { id: number; iid: number };
    before(async () => {
      p = await project();
      await milestone(await project(), 'version2'); // another project's: never listed
      closed = await milestone(p, 'version1', { description: 'closed milestone' });
      await s.put(`${p.path}/${closed.id}`, { token: dev.token, json: { state_event: 'close' } });
      open = await milestone(p, 'version2', { description: 'open milestone' });
      third = await milestone(p, 'Release 100%', { description: null });
    });
    const list = async (query: Record<string, string | number | (string | number)[]> = {}) => {
      const r = await s.get(p.path, { token: guest.token, query });
      expect(r.status, r.text).to.equal(200);
      expectSchema(r.body, SCHEMA);
      return r;
    };
    const ids = (r: { body: { id: number }[] }) => r.body.map((m) => m.id);

    it('lists every milestone, newest first, by default', async () => {
      const r = await list();
      expect(ids(r)).to.deep.equal([third.id, open.id, closed.id]);
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.body[2]).to.include({ state: 'closed', title: 'version1' });
    });

    it('filters by state', async () => {
      expect(ids(await list({ state: 'active' }))).to.deep.equal([third.id, open.id]);
      expect(ids(await list({ state: 'closed' }))).to.deep.equal([closed.id]);
      expect(ids(await list({ state: 'all' }))).to.deep.equal([third.id, open.id, closed.id]);
      const bad = await s.get(p.path, { token: guest.token, query: { state: 'opened' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'state does not have a valid value' });
    });

    it('filters by iids, given as an array or one value', async () => {
      expect(ids(await list({ 'iids[]': [closed.iid, third.iid] }))).to.deep.equal([third.id, closed.id]);
      expect(ids(await list({ iids: closed.iid }))).to.deep.equal([closed.id]);
      expect(ids(await list({ 'iids[]': [99] }))).to.deep.equal([]);
      expect(ids(await list({ 'iids[]': [open.iid], state: 'closed' }))).to.deep.equal([]);
      const bad = await s.get(p.path, { token: guest.token, query: { 'iids[]': ['x'] } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'iids is invalid' });
    });

    it('searches title or description: long words as substrings, short input exactly', async () => {
      expect(ids(await list({ search: 'version2' }))).to.deep.equal([open.id]);
      expect(ids(await list({ search: 'open' }))).to.deep.equal([open.id]);
      expect(ids(await list({ search: 'VERSION' }))).to.deep.equal([open.id, closed.id]);
      expect(ids(await list({ search: 'milestone closed' }))).to.deep.equal([closed.id]);
      expect(ids(await list({ search: '100%' }))).to.deep.equal([third.id]);
      expect(ids(await list({ search: '0%' }))).to.deep.equal([]); // short: must equal a column
      expect(ids(await list({ search: '   ' }))).to.have.length(3);
    });

    it("pages with GitLab's headers", async () => {
      const r = await list({ per_page: 2, page: 2 });
      expect(ids(r)).to.deep.equal([closed.id]);
      expect(r.headers.get('x-total-pages')).to.equal('2');
      expect(r.headers.get('x-page')).to.equal('2');
      expect(r.headers.get('link')).to.contain('rel="first"');
    });
  });

  describe('GET /projects/:id/milestones/:milestone_id', () => {
    it("finds the project's milestone by its global id", async () => {
      const p = await project();
      const m = await milestone(p, 'one', { due_date: '2030-01-01' });
      const r = await s.get(`${p.path}/${m.id}`, { token: guest.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal(m);
    });

    it("answers 404 Not found for an unknown id, an iid that is not an id, or another project's milestone", async () => {
      const p = await project();
      const other = await milestone(await project(), 'theirs');
      await milestone(p, 'a');
      const mine = await milestone(p, 'b'); // iid 2, id larger
      for (const id of [999999, other.id]) {
        const r = await s.get(`${p.path}/${id}`, { token: dev.token });
        expect(r.status, String(id)).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
      expect(mine.id).to.not.equal(mine.iid);
      // iid 2 is the id of no milestone of this project (the other project's came first).
      const byIid = await s.get(`${p.path}/${mine.iid}`, { token: dev.token });
      expect(byIid.status).to.equal(404);
      expect(byIid.body).to.deep.equal(NOT_FOUND);
    });

    it('answers 400 for a non-numeric id', async () => {
      const r = await s.get(`${(await project()).path}/abc`, { token: dev.token });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'milestone_id is invalid' });
    });
  });

  describe('PUT /projects/:id/milestones/:milestone_id', () => {
    let p: Project;
    let m: { id: number; updated_at: string };
    beforeEach(async () => {
      p = await project();
      await milestone(p, 'taken');
      m = await milestone(p, 'mine', { description: 'd', due_date: '2016-08-05', start_date: '2016-08-01' });
    });
    const put = (json: Record<string, unknown>, id = m.id) => s.put(`${p.path}/${id}`, { token: dev.token, json });

    it('changes the title and keeps the rest', async () => {
      const r = await put({ title: 'updated title' });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ title: 'updated title', description: 'd', due_date: '2016-08-05', start_date: '2016-08-01', state: 'active' });
      expectSchema([r.body], SCHEMA);
    });

    it('closes and reactivates', async () => {
      expect((await put({ state_event: 'close' })).body.state).to.equal('closed');
      expect((await put({ state_event: 'close' })).body.state).to.equal('closed');
      expect((await put({ state_event: 'activate' })).body.state).to.equal('active');
    });

    it('clears dates and the description with null or an empty value, and ignores a blank title', async () => {
      const r = await put({ due_date: null, description: null, title: '' });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ due_date: null, description: null, title: 'mine', start_date: '2016-08-01' });
      const form = await s.put(`${p.path}/${m.id}`, { token: dev.token, form: { description: 'x', start_date: '' } });
      expect(form.body).to.include({ start_date: null, description: 'x' });
    });

    it('sets start_date along with another attribute', async () => {
      const r = await put({ description: 'e', start_date: '2016-07-01' });
      expect(r.body).to.include({ start_date: '2016-07-01', description: 'e' });
    });

    it('reads a datetime-shaped due_date as its date, and clears it for what Rails cannot read', async () => {
      const r = await put({ due_date: '2016-09-30T00:00:00Z', start_date: 'Aug 1 2016' });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ due_date: '2016-09-30', start_date: '2016-08-01' });
      const cleared = await put({ due_date: '2016-02-30' });
      expect(cleared.status, cleared.text).to.equal(200);
      expect(cleared.body).to.include({ due_date: null, start_date: '2016-08-01' });
      const back = await s.get(`${p.path}/${m.id}`, { token: dev.token });
      expect(back.body).to.include({ due_date: null, start_date: '2016-08-01' });
    });

    it('keeps updated_at when nothing changes', async () => {
      const r = await put({ title: 'mine' });
      expect(r.status).to.equal(200);
      expect(r.body.updated_at).to.equal(m.updated_at);
    });

    it("answers Grape's 400s: nothing to change (start_date alone does not count), bad values", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'title, description, due_date, state_event are missing, at least one parameter must be provided'],
        [{ start_date: '2016-07-01' }, 'title, description, due_date, state_event are missing, at least one parameter must be provided'],
        [{ state_event: 'reopen' }, 'state_event does not have a valid value'],
      ];
      for (const [json, error] of cases) {
        const r = await put(json);
        expect(r.status, error).to.equal(400);
        expect(r.body).to.deep.equal({ error });
      }
      const bad = await s.put(`${p.path}/abc`, { token: dev.token, json: {} });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'milestone_id is invalid, title, description, due_date, state_event are missing, at least one parameter must be provided' });
    });

    it('answers 400 with the model errors as a Ruby hash and changes nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 'taken' }, `{:title=>["${TAKEN}"]}`],
        [{ due_date: '2016-07-01' }, '{:due_date=>["must be greater than start date"]}'],
        [{ title: 'taken', state_event: 'close', start_date: '2016-09-01' }, `{:title=>["${TAKEN}"], :due_date=>["must be greater than start date"]}`],
      ];
      for (const [json, errors] of cases) {
        const r = await put(json);
        expect(r.status, JSON.stringify(json)).to.equal(400);
        expect(r.body).to.deep.equal({ message: `Failed to update milestone ${errors}` });
      }
      const now = await s.get(`${p.path}/${m.id}`, { token: dev.token });
      expect(now.body).to.include({ title: 'mine', state: 'active', due_date: '2016-08-05', start_date: '2016-08-01' });
    });

    it("answers 404 Not found for a milestone that is not the project's", async () => {
      const other = await milestone(await project(), 'theirs');
      for (const id of [999999, other.id]) {
        const r = await put({ title: 'updated title' }, id);
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
    });
  });

  describe('DELETE /projects/:id/milestones/:milestone_id', () => {
    it('deletes with 204', async () => {
      const p = await project();
      const m = await milestone(p, 'bye');
      const r = await s.delete(`${p.path}/${m.id}`, { token: dev.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      const after = await s.get(`${p.path}/${m.id}`, { token: dev.token });
      expect(after.status).to.equal(404);
      expect(after.body).to.deep.equal(NOT_FOUND);
    });

    it('answers 404 Not found for an unknown, foreign or non-numeric id', async () => {
      const p = await project();
      const other = await milestone(await project(), 'theirs');
      for (const id of ['999999', String(other.id), 'abc']) {
        const r = await s.delete(`${p.path}/${id}`, { token: dev.token });
        expect(r.status, id).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
      expect((await s.get(`/projects/${other.project_id}/milestones/${other.id}`, { token: owner.token })).status).to.equal(200);
    });
  });

  describe('GET .../milestones/:milestone_id/issues and /merge_requests', () => {
    it('answers an empty, paginated list for a milestone of the project', async () => {
      const p = await project();
      const m = await milestone(p, 'm');
      for (const kind of ['issues', 'merge_requests']) {
        const r = await s.get(`${p.path}/${m.id}/${kind}`, { token: guest.token });
        expect(r.status, kind).to.equal(200);
        expect(r.body).to.deep.equal([]);
        expect(r.headers.get('x-total')).to.equal('0');
        expect(r.headers.get('x-total-pages')).to.equal('1');
      }
    });

    it("answers 404 Not found for a milestone that is not the project's and 400 for a non-numeric id", async () => {
      const p = await project();
      const other = await milestone(await project(), 'theirs');
      for (const kind of ['issues', 'merge_requests']) {
        const r = await s.get(`${p.path}/${other.id}/${kind}`, { token: dev.token });
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
        const bad = await s.get(`${p.path}/x/${kind}`, { token: dev.token });
        expect(bad.status).to.equal(400);
        expect(bad.body).to.deep.equal({ error: 'milestone_id is invalid' });
      }
    });
  });

  it("removes a deleted project's milestones and iid counter", async () => {
    const p = await project();
    await milestone(p, 'gone');
    expect((await s.delete(`/projects/${p.id}`, { token: owner.token })).status).to.equal(202);
    expect(await s.db('milestones').where({ project_id: p.id })).to.deep.equal([]);
  });
});
