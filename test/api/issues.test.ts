// Issues (GitLab 10.8 lib/api/issues.rb, IssuesFinder, Issues::Create/UpdateService):
// authentication, the entity, create/edit semantics with quietly dropped privileged fields,
// delete rights, every list filter, and the confidentiality matrix in lists and lookups.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { insertMember } from '../../src/services/members/members.js';
import { GUEST, REPORTER } from '../../src/policy/levels.js';

type Project = { id: number; path: string; fullPath: string };

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const GROUP_NOT_FOUND = { message: '404 Group Not Found' };
const NOT_FOUND = { message: '404 Not found' };
const ISSUE_NOT_FOUND = { message: '404 Issue Not Found' };
const BASIC_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'closed_at',
  'closed_by',
  'labels',
  'milestone',
  'assignees',
  'author',
  'assignee',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'due_date',
  'confidential',
  'discussion_locked',
  'web_url',
  'time_stats',
];
const AT_LEAST_ONE =
  'title, description, assignee_ids, assignee_id, milestone_id, discussion_locked, labels, created_at, due_date, confidential, state_event are missing, at least one parameter must be provided';

describe('Issues', () => {
  const { s, owner, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(visibility = 'private', extra: Record<string, unknown> = {}): Promise<Project> {
    const r = await projectWithRoles(s, owner, { dev, reporter, guest }, { name: `is${++counter}`, visibility, ...extra });
    const id = r.id as number;
    return { id, path: `/projects/${id}/issues`, fullPath: r.path_with_namespace };
  }

  async function issue(p: Project, body: Record<string, unknown>, token = owner.token) {
    const r = await s.post(p.path, { token, json: body });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  async function milestone(p: Project, title: string, extra: Record<string, unknown> = {}) {
    const r = await s.post(`/projects/${p.id}/milestones`, { token: owner.token, json: { title, ...extra } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  describe('authentication and lookup errors', () => {
    let pub: Project;
    before(async () => {
      pub = await project('public');
      await issue(pub, { title: 'one' });
    });

    it('answers 401 to anonymous requests on every route, even on a public project', async () => {
      const calls: [string, string][] = [
        ['GET', '/issues'],
        ['GET', '/groups/1/issues'],
        ['GET', pub.path],
        ['GET', `${pub.path}/1`],
        ['POST', pub.path],
        ['PUT', `${pub.path}/1`],
        ['DELETE', `${pub.path}/1`],
      ];
      for (const [method, path] of calls) {
        const r = await s.request(method, path, { token: null, json: method === 'GET' ? undefined : { title: 'x' } });
        expect(r.status, `${method} ${path}`).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
    });

    it('answers 404 Project Not Found for a hidden or missing project, before the parameters', async () => {
      const priv = await project('private');
      for (const [method, path] of [
        ['GET', priv.path],
        ['GET', `${priv.path}/zz`],
        ['POST', priv.path],
        ['PUT', `${priv.path}/1`],
        ['DELETE', `${priv.path}/1`],
        ['GET', '/projects/999999/issues'],
      ] as const) {
        const r = await s.request(method, path, { token: stranger.token, json: method === 'GET' ? undefined : {} });
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body).to.deep.equal(PROJECT_NOT_FOUND);
      }
    });

    it('answers 404 Group Not Found for a missing group', async () => {
      const r = await s.get('/groups/no-such-group/issues', { token: owner.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(GROUP_NOT_FOUND);
    });

    it('answers 404 Not found for a missing issue and 404 Issue Not Found on delete', async () => {
      let r = await s.get(`${pub.path}/99`, { token: owner.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.put(`${pub.path}/99`, { token: owner.token, json: { title: 'x' } });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.delete(`${pub.path}/99`, { token: owner.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(ISSUE_NOT_FOUND);
    });

    it('refuses a non-integer issue_iid with 400', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const r = await s.request(method, `${pub.path}/abc`, { token: owner.token, json: method === 'GET' ? undefined : { title: 'x' } });
        expect(r.status, method).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'issue_iid is invalid' });
      }
    });

    it('refuses bad list parameters with 400 and never 500s', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ state: 'open' }, 'state does not have a valid value'],
        [{ scope: 'mine' }, 'scope does not have a valid value'],
        [{ order_by: 'title' }, 'order_by does not have a valid value'],
        [{ sort: 'up' }, 'sort does not have a valid value'],
        [{ author_id: 'x' }, 'author_id is invalid'],
        [{ assignee_id: '1.5' }, 'assignee_id is invalid'],
        [{ created_after: 'yesterday' }, 'created_after is invalid'],
        [{ 'iids[]': 'a' }, 'iids is invalid'],
      ];
      for (const path of ['/issues', pub.path]) {
        for (const [query, error] of cases) {
          const r = await s.get(path, { token: owner.token, query });
          expect(r.status, JSON.stringify(query)).to.equal(400);
          expect(r.body).to.deep.equal({ error });
        }
      }
    });
  });

  describe('create and single', () => {
    let p: Project;
    before(async () => {
      p = await project('private');
    });

    it('creates an issue with the 10.8 Issue entity and consecutive iids', async () => {
      const m = await milestone(p, 'v1', { due_date: '2030-01-01' });
      const a = await issue(p, { title: 'First', description: 'desc', due_date: '2030-02-03', milestone_id: m.id, assignee_ids: [dev.user.id], labels: 'bug,feature' });
      expect(Object.keys(a)).to.deep.equal([...BASIC_KEYS, '_links', 'subscribed']);
      expectSchema(a, 'public_api/v4/issue.json');
      expect(a).to.include({
        iid: 1,
        project_id: p.id,
        title: 'First',
        description: 'desc',
        state: 'opened',
        closed_at: null,
        closed_by: null,
        due_date: '2030-02-03',
        confidential: false,
        discussion_locked: null,
        user_notes_count: 0,
        upvotes: 0,
        downvotes: 0,
        subscribed: true,
      });
      expect(a.labels).to.deep.equal(['bug', 'feature']);
      expect(a.milestone).to.include({ id: m.id, title: 'v1' });
      expect(a.assignees.map((u: { id: number }) => u.id)).to.deep.equal([dev.user.id]);
      expect(a.assignee.id).to.equal(dev.user.id);
      expect(a.author).to.deep.include({ id: owner.user.id, username: 'owner' });
      expect(a.web_url).to.equal(`${s.deps.urls.base}/${p.fullPath}/issues/1`);
      expect(a._links).to.deep.equal({
        self: `${s.deps.urls.api}/projects/${p.id}/issues/1`,
        notes: `${s.deps.urls.api}/projects/${p.id}/issues/1/notes`,
        award_emoji: `${s.deps.urls.api}/projects/${p.id}/issues/1/award_emoji`,
        project: `${s.deps.urls.api}/projects/${p.id}`,
      });
      expect(a.time_stats).to.deep.equal({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
      const b = await issue(p, { title: 'Second' });
      expect(b.iid).to.equal(2);
      const got = await s.get(`${p.path}/1`, { token: reporter.token });
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal({ ...a, subscribed: false });
    });

    it('creates missing labels (#428BCA) for reporters, and reuses existing ones', async () => {
      const r = await issue(p, { title: 'labels', labels: ' urgent , bug' }, reporter.token);
      expect(r.labels).to.deep.equal(['bug', 'urgent']);
      const labels = await s.get(`/projects/${p.id}/labels`, { token: owner.token });
      const urgent = labels.body.find((l: { name: string }) => l.name === 'urgent');
      expect(urgent.color).to.equal('#428BCA');
      expect(labels.body.filter((l: { name: string }) => l.name === 'bug')).to.have.length(1);
    });

    it('needs a title: 400 when missing or blank', async () => {
      let r = await s.post(p.path, { token: owner.token, json: { description: 'x' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'title is missing' });
      r = await s.post(p.path, { token: owner.token, json: { title: '  ' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { title: ["can't be blank"] } });
      r = await s.post(p.path, { token: owner.token, json: { title: 'x'.repeat(256) } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { title: ['is too long (maximum is 255 characters)'] } });
      r = await s.post(p.path, { token: owner.token, json: { title: 'x', confidential: 'maybe' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'confidential is invalid' });
    });

    it('silently drops privileged fields for guests', async () => {
      const m = await milestone(p, 'guest-ms');
      const r = await issue(
        p,
        { title: 'from guest', milestone_id: m.id, labels: 'newlabel,bug', assignee_ids: [dev.user.id], due_date: '2031-01-01', discussion_locked: true, confidential: true },
        guest.token,
      );
      expect(r).to.include({ milestone: null, due_date: null, discussion_locked: null, confidential: true, assignee: null });
      expect(r.labels).to.deep.equal([]);
      expect(r.assignees).to.deep.equal([]);
      const labels = await s.get(`/projects/${p.id}/labels`, { token: owner.token });
      expect(labels.body.map((l: { name: string }) => l.name)).to.not.include('newlabel');
    });

    it('lets non-members of a public project create issues, but not of an archived one', async () => {
      const pub = await project('public');
      const r = await issue(pub, { title: 'outsider', labels: 'x' }, stranger.token);
      expect(r.author.id).to.equal(stranger.user.id);
      expect(r.labels).to.deep.equal([]);
      const arch = await project('public');
      await s.post(`/projects/${arch.id}/archive`, { token: owner.token });
      const denied = await s.post(arch.path, { token: stranger.token, json: { title: 'x' } });
      expect(denied.status).to.equal(403);
      expect(denied.body).to.deep.equal(FORBIDDEN);
    });

    it('honours created_at for the owner and admins only', async () => {
      const when = '2016-01-02T03:04:05.000Z';
      const byOwner = await issue(p, { title: 'old', created_at: when });
      expect(byOwner.created_at).to.equal(when);
      const byAdmin = await issue(p, { title: 'old', created_at: when }, admin.token);
      expect(byAdmin.created_at).to.equal(when);
      const byDev = await issue(p, { title: 'old', created_at: when }, dev.token);
      expect(byDev.created_at).to.not.equal(when);
    });

    it('unsets a milestone of another project and drops assignees who cannot read the project', async () => {
      const other = await project('private');
      const foreign = await milestone(other, 'foreign');
      const r = await issue(p, { title: 'x', milestone_id: foreign.id, assignee_ids: [stranger.user.id] });
      expect(r.milestone).to.equal(null);
      expect(r.assignees).to.deep.equal([]);
    });

    it('keeps only the first assignee (CE) and accepts the deprecated assignee_id', async () => {
      let r = await issue(p, { title: 'x', assignee_ids: [reporter.user.id, dev.user.id] });
      expect(r.assignees.map((u: { id: number }) => u.id)).to.deep.equal([reporter.user.id]);
      r = await issue(p, { title: 'x', assignee_id: dev.user.id });
      expect(r.assignee.id).to.equal(dev.user.id);
    });

    it('treats an issues-disabled project as having no issues', async () => {
      const off = await project('public', { issues_enabled: false });
      const created = await s.post(off.path, { token: owner.token, json: { title: 'x' } });
      expect(created.status).to.equal(403);
      expect(created.body).to.deep.equal(FORBIDDEN);
      const list = await s.get(off.path, { token: stranger.token });
      expect(list.status).to.equal(200);
      expect(list.body).to.deep.equal([]);
    });
  });

  describe('edit', () => {
    let p: Project;
    before(async () => {
      p = await project('private');
    });

    it('needs at least one field (400) and a valid state_event', async () => {
      const i = await issue(p, { title: 'x' });
      let r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: {} });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: AT_LEAST_ONE });
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { state_event: 'open' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'state_event does not have a valid value' });
      // A member who may not edit the issue is refused first, as on every route.
      r = await s.put(`${p.path}/${i.iid}`, { token: guest.token, json: { state_event: 'bogus' } });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { title: '' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { title: ["can't be blank"] } });
    });

    it('closes and reopens with closed_at and closed_by', async () => {
      const i = await issue(p, { title: 'x' });
      let r = await s.put(`${p.path}/${i.iid}`, { token: reporter.token, json: { state_event: 'close' } });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.state).to.equal('closed');
      expect(r.body.closed_at).to.be.a('string');
      expect(r.body.closed_by.id).to.equal(reporter.user.id);
      expectSchema(r.body, 'public_api/v4/issue.json');
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { state_event: 'reopen' } });
      expect(r.body).to.include({ state: 'opened', closed_at: null, closed_by: null });
    });

    it('changes every field, and 0 or empty unassigns, clears the milestone, "" removes labels', async () => {
      const m = await milestone(p, 'edit-ms');
      const i = await issue(p, { title: 'x', labels: 'a,b', milestone_id: m.id, assignee_ids: [dev.user.id] });
      let r = await s.put(`${p.path}/${i.iid}`, {
        token: reporter.token,
        json: { title: 'y', description: 'd', confidential: true, due_date: '2029-09-09', discussion_locked: true, labels: 'c' },
      });
      expect(r.body).to.include({ title: 'y', description: 'd', confidential: true, due_date: '2029-09-09', discussion_locked: true });
      expect(r.body.labels).to.deep.equal(['c']);
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { assignee_ids: [0], milestone_id: 0, labels: '' } });
      expect(r.body.assignees).to.deep.equal([]);
      expect(r.body.milestone).to.equal(null);
      expect(r.body.labels).to.deep.equal([]);
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { assignee_ids: [dev.user.id], milestone_id: m.id } });
      expect(r.body.assignee.id).to.equal(dev.user.id);
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, form: { assignee_ids: '', milestone_id: '', due_date: '' } });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ assignee: null, milestone: null, due_date: null });
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { assignee_id: 0 } });
      expect(r.body.assignees).to.deep.equal([]);
    });

    it('stores a datetime-shaped or otherwise Date._parse-readable due_date as its date (Rails 4.2 cast)', async () => {
      const created = await s.post(p.path, { token: reporter.token, json: { title: 'dt', due_date: '2020-01-01T00:00:00Z' } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.include({ due_date: '2020-01-01' });
      const cases: [string, string | null][] = [
        ['2020-01-02T23:30:00-05:00', '2020-01-02'],
        ['Jan 3 2020', '2020-01-03'],
        ['2020/01/04', '2020-01-04'],
        ['20200105', '2020-01-05'],
        ['2020-02-30', null],
        ['soon', null],
      ];
      for (const [given, stored] of cases) {
        const r = await s.put(`${p.path}/${created.body.iid}`, { token: reporter.token, json: { due_date: given } });
        expect(r.status, given).to.equal(200);
        expect(r.body, given).to.include({ due_date: stored });
        const back = await s.get(`${p.path}/${created.body.iid}`, { token: reporter.token });
        expect(back.body, given).to.include({ due_date: stored });
      }
    });

    it("reads created_at and updated_at as Grape's DateTime does, and refuses what it cannot read", async () => {
      const r = await s.post(p.path, { token: owner.token, json: { title: 'dated', created_at: 'Tue, 02 May 2017 10:00:00 +0200' } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.created_at).to.equal('2017-05-02T08:00:00.000Z');
      const bad = await s.post(p.path, { token: owner.token, json: { title: 'dated', created_at: 'last week' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'created_at is invalid' });
      const badUpdate = await s.put(`${p.path}/${r.body.iid}`, { token: owner.token, json: { title: 'x', updated_at: '2017-13-01' } });
      expect(badUpdate.status).to.equal(400);
      expect(badUpdate.body).to.deep.equal({ error: 'updated_at is invalid' });
    });

    it('honours updated_at for the owner only, and keeps it when nothing changes', async () => {
      const i = await issue(p, { title: 'x' });
      const when = '2017-05-06T07:08:09.000Z';
      let r = await s.put(`${p.path}/${i.iid}`, { token: dev.token, json: { title: 'x', updated_at: when } });
      expect(r.body.updated_at).to.equal(i.updated_at);
      r = await s.put(`${p.path}/${i.iid}`, { token: owner.token, json: { title: 'z', updated_at: when } });
      expect(r.body.updated_at).to.equal(when);
    });

    it('lets a guest author edit plain fields, dropping privileged ones; other guests get 403', async () => {
      const m = await milestone(p, 'guest-edit');
      const mine = await issue(p, { title: 'guest issue' }, guest.token);
      let r = await s.put(`${p.path}/${mine.iid}`, { token: guest.token, json: { title: 'renamed', milestone_id: m.id, labels: 'zz' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ title: 'renamed', milestone: null });
      expect(r.body.labels).to.deep.equal([]);
      const theirs = await issue(p, { title: 'owner issue' });
      r = await s.put(`${p.path}/${theirs.iid}`, { token: guest.token, json: { title: 'hack' } });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
      // 10.8 validates the parameters before the endpoint looks the issue up and asks
      // update_issue of it: an empty edit is a 400 even for one who may not edit
      r = await s.put(`${p.path}/${theirs.iid}`, { token: guest.token, json: {} });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: AT_LEAST_ONE });
    });

    it('lets an assignee edit the issue', async () => {
      const i = await issue(p, { title: 'assigned', assignee_ids: [guest.user.id] });
      const r = await s.put(`${p.path}/${i.iid}`, { token: guest.token, json: { description: 'by assignee' } });
      expect(r.status).to.equal(200);
      expect(r.body.description).to.equal('by assignee');
      expect(r.body.subscribed).to.equal(true);
    });
  });

  describe('delete', () => {
    it('needs the owner or an admin: 403 for developers, 204 otherwise, then gone', async () => {
      const p = await project('private');
      const a = await issue(p, { title: 'a', labels: 'x' });
      const b = await issue(p, { title: 'b' });
      let r = await s.delete(`${p.path}/${a.iid}`, { token: dev.token });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
      r = await s.delete(`${p.path}/${a.iid}`, { token: owner.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      r = await s.get(`${p.path}/${a.iid}`, { token: owner.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.delete(`${p.path}/${b.iid}`, { token: admin.token });
      expect(r.status).to.equal(204);
      // iids are never reused
      const c = await issue(p, { title: 'c' });
      expect(c.iid).to.equal(3);
    });
  });

  describe('confidentiality', () => {
    let pub: Project;
    let author: Account;
    let assignee: Account;
    let secret: { iid: number; id: number };
    before(async () => {
      pub = await project('public');
      author = (await s.createUser('confauthor')) as Account;
      assignee = (await s.createUser('confassignee')) as Account;
      await insertMember(s.db, { sourceType: 'project', sourceId: pub.id, userId: assignee.user.id, accessLevel: GUEST });
      await issue(pub, { title: 'open issue' });
      secret = await issue(pub, { title: 'secret', confidential: true }, author.token);
      const r = await s.put(`${pub.path}/${secret.iid}`, { token: owner.token, json: { assignee_ids: [assignee.user.id] } });
      expect(r.body.assignee.id).to.equal(assignee.user.id);
    });

    const matrix = () =>
      [
        ['non-member', stranger, false],
        ['guest', guest, false],
        ['reporter', reporter, true],
        ['owner', owner, true],
        ['author', author, true],
        ['assignee', assignee, true],
        ['admin', admin, true],
      ] as [string, Account, boolean][];

    it('shows a confidential issue only to reporters+, the author, assignees and admins', async () => {
      for (const [who, account, sees] of matrix()) {
        const single = await s.get(`${pub.path}/${secret.iid}`, { token: account.token });
        expect(single.status, who).to.equal(sees ? 200 : 404);
        if (!sees) expect(single.body).to.deep.equal(NOT_FOUND);
        const list = await s.get(pub.path, { token: account.token });
        expect(
          list.body.map((i: { title: string }) => i.title),
          who,
        ).to.deep.equal(sees ? ['secret', 'open issue'] : ['open issue']);
        expect(list.headers.get('x-total'), who).to.equal(sees ? '2' : '1');
        const all = await s.get('/issues', { token: account.token, query: { scope: 'all', search: 'secret' } });
        expect(
          all.body.map((i: { id: number }) => i.id),
          who,
        ).to.deep.equal(sees ? [secret.id] : []);
      }
    });

    it('answers an edit of a confidential issue by someone who cannot see it as if it did not exist', async () => {
      const r = await s.put(`${pub.path}/${secret.iid}`, { token: guest.token, json: { title: 'x' } });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Not found' });
      expect((await s.get(`${pub.path}/${secret.iid}`, { token: owner.token })).body.title).to.not.equal('x');
    });
  });

  describe('lists and filters', () => {
    let p: Project;
    let other: Project;
    let groupId: number;
    let m1: { id: number; title: string };
    let m2: { id: number; title: string };
    let mStarted: { id: number };
    const ids: Record<string, number> = {};

    before(async () => {
      const g = await s.post('/groups', { token: owner.token, json: { name: 'issuegroup', path: 'issuegroup', visibility: 'private' } });
      expect(g.status, g.text).to.equal(201);
      groupId = g.body.id;
      p = await project('private', { namespace_id: groupId });
      other = await project('private');
      m1 = await milestone(p, 'soon', { due_date: '2090-01-01' });
      m2 = await milestone(p, 'later', { due_date: '2095-01-01' });
      mStarted = await milestone(p, 'running', { start_date: '2000-01-01', due_date: '2001-01-01' });
      const mk = async (key: string, body: Record<string, unknown>, token = owner.token, when?: string) => {
        const r = await issue(p, { ...body, ...(when ? { created_at: when } : {}) }, token);
        ids[key] = r.iid;
      };
      await mk('alpha', { title: 'Alpha bug report', labels: 'bug,ui', milestone_id: m1.id, assignee_ids: [dev.user.id] }, owner.token, '2018-01-01T00:00:00Z');
      await mk('beta', { title: 'Beta', description: 'crash in parser', labels: 'bug', milestone_id: m2.id }, owner.token, '2018-02-01T00:00:00Z');
      await mk('gamma', { title: 'Gamma', milestone_id: mStarted.id }, dev.token);
      await mk('delta', { title: 'Delta', assignee_ids: [reporter.user.id] }, reporter.token);
      const r = await s.put(`${p.path}/${ids.beta}`, { token: owner.token, json: { state_event: 'close' } });
      expect(r.status).to.equal(200);
      await issue(other, { title: 'Elsewhere', labels: 'bug' }, dev.token);
    });

    async function titles(path: string, query: Record<string, string | number | (string | number)[]>, token = owner.token): Promise<string[]> {
      const r = await s.get(path, { token, query });
      expect(r.status, r.text).to.equal(200);
      return r.body.map((i: { title: string }) => i.title);
    }

    it('lists IssueBasic entities newest first, paginated, matching the schema', async () => {
      const r = await s.get(p.path, { token: owner.token, query: { per_page: 2 } });
      expect(r.status).to.equal(200);
      expect(r.headers.get('x-total')).to.equal('4');
      expect(r.headers.get('x-next-page')).to.equal('2');
      expect(Object.keys(r.body[0])).to.deep.equal(BASIC_KEYS);
      expectSchema(r.body, 'public_api/v4/issues.json');
      expect(r.body.map((i: { title: string }) => i.title)).to.deep.equal(['Delta', 'Gamma']);
    });

    it('filters by state', async () => {
      expect(await titles(p.path, { state: 'closed' })).to.deep.equal(['Beta']);
      expect(await titles(p.path, { state: 'opened' })).to.deep.equal(['Delta', 'Gamma', 'Alpha bug report']);
    });

    it('filters by labels (all must match), No Label, None and Any', async () => {
      expect(await titles(p.path, { labels: 'bug' })).to.deep.equal(['Beta', 'Alpha bug report']);
      expect(await titles(p.path, { labels: 'bug,ui' })).to.deep.equal(['Alpha bug report']);
      expect(await titles(p.path, { labels: 'bug,nope' })).to.deep.equal([]);
      expect(await titles(p.path, { labels: 'No Label' })).to.deep.equal(['Delta', 'Gamma']);
      expect(await titles(p.path, { labels: 'None' })).to.deep.equal(['Delta', 'Gamma']);
      expect(await titles(p.path, { labels: 'Any' })).to.deep.equal(['Beta', 'Alpha bug report']);
    });

    it('filters by milestone title, No Milestone, None, Any, #upcoming and #started', async () => {
      expect(await titles(p.path, { milestone: 'later' })).to.deep.equal(['Beta']);
      expect(await titles(p.path, { milestone: 'No Milestone' })).to.deep.equal(['Delta']);
      expect(await titles(p.path, { milestone: 'None' })).to.deep.equal(['Delta']);
      expect(await titles(p.path, { milestone: 'Any' })).to.deep.equal(['Gamma', 'Beta', 'Alpha bug report']);
      expect(await titles(p.path, { milestone: '#upcoming' })).to.deep.equal(['Alpha bug report']);
      expect(await titles(p.path, { milestone: '#started' })).to.deep.equal(['Gamma']);
      expect(await titles(p.path, { milestone: 'unknown' })).to.deep.equal([]);
    });

    it('filters by author, assignee (0 matches nothing), iids and search', async () => {
      expect(await titles(p.path, { author_id: dev.user.id })).to.deep.equal(['Gamma']);
      expect(await titles(p.path, { assignee_id: dev.user.id })).to.deep.equal(['Alpha bug report']);
      expect(await titles(p.path, { assignee_id: 0 })).to.deep.equal([]);
      expect(await titles(p.path, { 'iids[]': [ids.alpha, ids.gamma] })).to.deep.equal(['Gamma', 'Alpha bug report']);
      expect(await titles(p.path, { search: 'parser' })).to.deep.equal(['Beta']);
      expect(await titles(p.path, { search: 'BUG' })).to.deep.equal(['Alpha bug report']);
    });

    it('filters by creation and update times (inclusive)', async () => {
      expect(await titles(p.path, { created_before: '2018-01-01T00:00:00Z' })).to.deep.equal(['Alpha bug report']);
      expect(await titles(p.path, { created_after: '2018-01-15', created_before: '2018-03-01' })).to.deep.equal(['Beta']);
      // Other forms DateTime.parse reads, as 10.8 did.
      expect(await titles(p.path, { created_after: 'Jan 15 2018', created_before: '20180301T000000Z' })).to.deep.equal(['Beta']);
      expect(await titles(p.path, { updated_after: '2100-01-01' })).to.deep.equal([]);
      expect(await titles(p.path, { updated_before: '2018-01-01T00:00:00Z' })).to.deep.equal(['Alpha bug report']);
    });

    it('orders by created_at or updated_at, desc or asc', async () => {
      expect(await titles(p.path, { sort: 'asc' })).to.deep.equal(['Alpha bug report', 'Beta', 'Gamma', 'Delta']);
      expect((await titles(p.path, { order_by: 'updated_at' }))[0]).to.equal('Beta'); // closed last
    });

    it('combines filters', async () => {
      expect(await titles(p.path, { labels: 'bug', state: 'opened', milestone: 'soon', search: 'alpha' })).to.deep.equal(['Alpha bug report']);
      expect(await titles(p.path, { labels: 'bug', state: 'opened', milestone: 'later' })).to.deep.equal([]);
    });

    it('scopes: all by default on project and group lists, created-by-me on /issues', async () => {
      expect(await titles(p.path, {}, reporter.token)).to.have.length(4);
      expect(await titles(p.path, { scope: 'created-by-me' }, reporter.token)).to.deep.equal(['Delta']);
      expect(await titles(p.path, { scope: 'assigned-to-me' }, dev.token)).to.deep.equal(['Alpha bug report']);
      expect(await titles('/issues', {}, dev.token)).to.include.members(['Gamma', 'Elsewhere']);
      expect(await titles('/issues', {}, dev.token)).to.not.include('Alpha bug report');
      const assigned = await titles('/issues', { scope: 'assigned-to-me' }, dev.token);
      expect(assigned).to.include('Alpha bug report');
      expect(assigned).to.not.include('Gamma');
      expect(assigned).to.not.include('Elsewhere');
      const bugs = await titles('/issues', { scope: 'all', labels: 'bug', per_page: 100 }, dev.token);
      expect(bugs).to.include.members(['Elsewhere', 'Beta', 'Alpha bug report']);
      expect(bugs).to.not.include('Gamma');
    });

    it("lists a group's issues (not other projects') for those who may see the group", async () => {
      expect(await titles(`/groups/${groupId}/issues`, { labels: 'bug' })).to.deep.equal(['Beta', 'Alpha bug report']);
      const r = await s.get(`/groups/${groupId}/issues`, { token: stranger.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(GROUP_NOT_FOUND);
    });

    it('does not show issues of projects the user cannot see on /issues', async () => {
      const seen = await titles('/issues', { scope: 'all', per_page: 100 }, stranger.token);
      expect(seen).to.include('outsider'); // public project issues are listed
      expect(seen).to.not.include('Alpha bug report');
      expect(seen).to.not.include('Elsewhere');
    });
  });

  describe('counts elsewhere: projects, labels, milestones', () => {
    let p: Project;
    let ms: { id: number };
    before(async () => {
      p = await project('public');
      ms = await milestone(p, 'counted');
      await issue(p, { title: 'open one', labels: 'cnt', milestone_id: ms.id });
      await issue(p, { title: 'secret one', labels: 'cnt', confidential: true, milestone_id: ms.id });
      const closed = await issue(p, { title: 'closed one', labels: 'cnt,prio', milestone_id: ms.id });
      await s.put(`${p.path}/${closed.iid}`, { token: owner.token, json: { state_event: 'close' } });
      await issue(p, { title: 'no milestone' });
    });

    it('counts open, non-confidential issues in open_issues_count', async () => {
      for (const account of [owner, stranger]) {
        const r = await s.get(`/projects/${p.id}`, { token: account.token });
        expect(r.body.open_issues_count).to.equal(2);
      }
      const list = await s.get('/projects', { token: owner.token, query: { search: p.fullPath.split('/')[1] } });
      expect(list.body.find((x: { id: number }) => x.id === p.id).open_issues_count).to.equal(2);
    });

    it("counts a label's open and closed issues as the user may see them", async () => {
      const count = async (token: string) => {
        const r = await s.get(`/projects/${p.id}/labels`, { token });
        const l = r.body.find((x: { name: string }) => x.name === 'cnt');
        return [l.open_issues_count, l.closed_issues_count, l.open_merge_requests_count];
      };
      expect(await count(reporter.token)).to.deep.equal([2, 1, 0]);
      expect(await count(stranger.token)).to.deep.equal([1, 1, 0]);
    });

    it("lists a milestone's issues by label priority, confidential ones hidden from guests", async () => {
      const labels = await s.get(`/projects/${p.id}/labels`, { token: owner.token });
      const prio = labels.body.find((x: { name: string }) => x.name === 'prio');
      const set = await s.put(`/projects/${p.id}/labels`, { token: owner.token, json: { name: 'prio', priority: 1 } });
      expect(set.status, set.text).to.equal(200);
      expect(prio).to.not.equal(undefined);
      let r = await s.get(`/projects/${p.id}/milestones/${ms.id}/issues`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expect(r.headers.get('x-total')).to.equal('3');
      expect(Object.keys(r.body[0])).to.deep.equal(BASIC_KEYS);
      expect(r.body.map((i: { title: string }) => i.title)).to.deep.equal(['closed one', 'secret one', 'open one']);
      r = await s.get(`/projects/${p.id}/milestones/${ms.id}/issues`, { token: guest.token });
      expect(r.body.map((i: { title: string }) => i.title)).to.deep.equal(['closed one', 'open one']);
      r = await s.get(`/projects/${p.id}/milestones/${ms.id}/merge_requests`, { token: guest.token });
      expect(r.body).to.deep.equal([]);
    });
  });

  describe('deleted users', () => {
    it('keeps their issues: the author becomes the Ghost User, closed_by goes, assignments go', async () => {
      const p = await project('private');
      const gone = (await s.createUser('leaving')) as Account;
      await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: gone.user.id, accessLevel: REPORTER });
      const i = await issue(p, { title: 'by leaving' }, gone.token);
      const j = await issue(p, { title: 'assigned', assignee_ids: [gone.user.id] });
      await s.put(`${p.path}/${i.iid}`, { token: gone.token, json: { state_event: 'close' } });
      const del = await s.delete(`/users/${gone.user.id}`, { token: admin.token });
      expect(del.status, del.text).to.equal(204);
      let r = await s.get(`${p.path}/${i.iid}`, { token: owner.token });
      expect(r.status).to.equal(200);
      expect(r.body.author).to.include({ username: 'ghost', name: 'Ghost User' });
      expect(r.body.closed_by).to.equal(null);
      expectSchema(r.body, 'public_api/v4/issue.json');
      r = await s.get(`${p.path}/${j.iid}`, { token: owner.token });
      expect(r.body.assignees).to.deep.equal([]);
      const list = await s.get(p.path, { token: owner.token });
      expect(list.status).to.equal(200);
    });
  });
});
