// The two merge request lists (GitLab 10.8 GET /merge_requests and
// GET /projects/:id/merge_requests, MergeRequestsFinder): authentication and scope defaults,
// visibility across projects, every filter, ordering, view=simple and the list schema.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { commitFiles, createBranch, openMergeRequest } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';

const SIMPLE_KEYS = ['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'web_url'];

describe('Merge request lists', () => {
  const { s, owner, dev, reporter, guest, stranger, admin } = useServerWithRoles();
  let pub: number;
  let priv: number;
  /** Titles by key, ids of the merge requests made in `before`. */
  const mrs: Record<string, { id: number; iid: number; project_id: number }> = {};

  async function project(name: string, visibility: string): Promise<number> {
    const { id } = await projectWithRoles(s, owner, { dev, reporter, guest }, { name, visibility });
    await commitFiles(s, id, 'master', [{ action: 'create', file_path: 'README', content: 'x\n' }], { message: 'init', token: owner.token });
    return id;
  }

  async function mr(key: string, projectId: number, body: Record<string, unknown>, token = owner.token) {
    const source = `b-${key.replace(/ /g, '-')}`;
    await createBranch(s, projectId, source, 'master', owner.token);
    mrs[key] = await openMergeRequest(s, projectId, { title: key, source_branch: source, target_branch: 'master', ...body }, token);
    return mrs[key];
  }

  const titles = (body: { title: string }[]) => body.map((m) => m.title);

  before(async () => {
    pub = await project('pub', 'public');
    priv = await project('priv', 'private');
    const ms = await s.post(`/projects/${pub}/milestones`, { token: owner.token, json: { title: 'v1', start_date: '2000-01-01', due_date: '2999-01-01' } });
    await s.post(`/projects/${pub}/milestones`, { token: owner.token, json: { title: 'v2', due_date: '2999-06-01' } });
    await mr('alpha fix', pub, { labels: 'bug,ui', milestone_id: ms.body.id, description: 'the parser breaks' });
    await mr('beta feature', pub, { labels: 'bug', assignee_id: dev.user.id }, dev.token);
    await mr('gamma', pub, {}, dev.token);
    await mr('secret', priv, { assignee_id: reporter.user.id });
    // States other than opened are reached by other services; set them directly.
    await s.db('merge_requests').where({ id: mrs['gamma'].id }).update({ state: 'merged' });
    await s.put(`/projects/${pub}/merge_requests/${mrs['beta feature'].iid}`, { token: owner.token, json: { state_event: 'close' } });
    // Distinct, known timestamps for ordering and date bounds.
    const stamps: Record<string, [string, string]> = {
      'alpha fix': ['2020-01-01T00:00:00.000Z', '2020-03-01T00:00:00.000Z'],
      'beta feature': ['2020-02-01T00:00:00.000Z', '2020-02-15T00:00:00.000Z'],
      gamma: ['2020-03-01T00:00:00.000Z', '2020-03-02T00:00:00.000Z'],
      secret: ['2020-04-01T00:00:00.000Z', '2020-04-01T00:00:00.000Z'],
    };
    for (const [k, [c, u]] of Object.entries(stamps)) await s.db('merge_requests').where({ id: mrs[k].id }).update({ created_at: c, updated_at: u });
    const stamp = new Date().toISOString();
    await s
      .db('award_emoji')
      .insert({ awardable_type: 'MergeRequest', awardable_id: mrs['alpha fix'].id, user_id: dev.user.id, name: 'thumbsup', created_at: stamp, updated_at: stamp });
  });

  describe('GET /merge_requests', () => {
    it('needs a user unless scope=all; defaults to what the user created', async () => {
      let r = await s.get('/merge_requests', { token: null });
      expect([r.status, r.body]).to.deep.equal([401, { message: '401 Unauthorized' }]);
      r = await s.get('/merge_requests', { token: null, query: { scope: 'assigned-to-me' } });
      expect(r.status).to.equal(401);
      r = await s.get('/merge_requests', { token: null, query: { scope: 'all' } });
      expect(r.status).to.equal(200);
      expect(titles(r.body)).to.deep.equal(['gamma', 'beta feature', 'alpha fix']);
      r = await s.get('/merge_requests', { token: dev.token });
      expect(titles(r.body)).to.deep.equal(['gamma', 'beta feature']);
      r = await s.get('/merge_requests', { token: dev.token, query: { scope: 'assigned-to-me' } });
      expect(titles(r.body)).to.deep.equal(['beta feature']);
      expectSchema(r.body, 'public_api/v4/merge_requests.json');
    });

    it('shows private projects only to reporters and up (not guests) and admins', async () => {
      const all = async (who: Account) => titles((await s.get('/merge_requests', { token: who.token, query: { scope: 'all' } })).body);
      expect(await all(reporter)).to.include('secret');
      expect(await all(admin)).to.include('secret');
      expect(await all(guest)).to.not.include('secret');
      expect(await all(stranger)).to.not.include('secret');
      // Not even as assignee-scope through a project they cannot read.
      const r = await s.get('/merge_requests', { token: reporter.token, query: { scope: 'assigned-to-me' } });
      expect(titles(r.body)).to.deep.equal(['secret']);
    });
  });

  describe('GET /projects/:id/merge_requests', () => {
    const list = async (query: Record<string, string | number | (string | number)[]>, token: string | null = owner.token, project = pub) => {
      const r = await s.get(`/projects/${project}/merge_requests`, { token, query });
      expect(r.status, r.text).to.equal(200);
      return titles(r.body);
    };

    it('works anonymously on public projects, 404 on private ones, 403 for guests of private ones', async () => {
      expect(await list({}, null)).to.deep.equal(['gamma', 'beta feature', 'alpha fix']);
      let r = await s.get(`/projects/${priv}/merge_requests`, { token: null });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
      r = await s.get(`/projects/${priv}/merge_requests`, { token: guest.token });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      expect(await list({}, reporter.token, priv)).to.deep.equal(['secret']);
    });

    it('filters by state (default all), scope, author and assignee', async () => {
      expect(await list({ state: 'opened' })).to.deep.equal(['alpha fix']);
      expect(await list({ state: 'closed' })).to.deep.equal(['beta feature']);
      expect(await list({ state: 'merged' })).to.deep.equal(['gamma']);
      expect(await list({ state: 'all' })).to.have.length(3);
      expect(await list({ state: '' })).to.have.length(3);
      expect(await list({ scope: 'created-by-me' }, dev.token)).to.deep.equal(['gamma', 'beta feature']);
      expect(await list({ author_id: owner.user.id })).to.deep.equal(['alpha fix']);
      expect(await list({ assignee_id: dev.user.id })).to.deep.equal(['beta feature']);
      expect(await list({ assignee_id: 0 })).to.deep.equal([]);
      const r = await s.get(`/projects/${pub}/merge_requests`, { query: { state: 'open' } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'state does not have a valid value' }]);
    });

    it('orders by created_at or updated_at, either way', async () => {
      expect(await list({ order_by: 'created_at', sort: 'asc' })).to.deep.equal(['alpha fix', 'beta feature', 'gamma']);
      expect(await list({ order_by: 'updated_at' })).to.deep.equal(['gamma', 'alpha fix', 'beta feature']);
      expect(await list({ order_by: 'updated_at', sort: 'asc' })).to.deep.equal(['beta feature', 'alpha fix', 'gamma']);
    });

    it('filters by labels (all of them), No Label, milestone and its special values', async () => {
      expect(await list({ labels: 'bug' })).to.deep.equal(['beta feature', 'alpha fix']);
      expect(await list({ labels: 'bug,ui' })).to.deep.equal(['alpha fix']);
      expect(await list({ labels: 'No Label' })).to.deep.equal(['gamma']);
      expect(await list({ labels: 'nothing' })).to.deep.equal([]);
      expect(await list({ milestone: 'v1' })).to.deep.equal(['alpha fix']);
      expect(await list({ milestone: 'No Milestone' })).to.deep.equal(['gamma', 'beta feature']);
      expect(await list({ milestone: '#upcoming' })).to.deep.equal(['alpha fix']);
      expect(await list({ milestone: '#started' })).to.deep.equal(['alpha fix']);
      expect(await list({ milestone: 'v2' })).to.deep.equal([]);
      expect(await list({ milestone: 'Any' })).to.deep.equal(['alpha fix']);
    });

    it('filters by dates (inclusive), branches, search, iids and my reaction', async () => {
      expect(await list({ created_after: '2020-02-01T00:00:00Z' })).to.deep.equal(['gamma', 'beta feature']);
      expect(await list({ created_before: '2020-02-01T00:00:00Z' })).to.deep.equal(['beta feature', 'alpha fix']);
      expect(await list({ updated_after: '2020-03-01T00:00:00Z' })).to.deep.equal(['gamma', 'alpha fix']);
      expect(await list({ updated_before: '2020-02-20T00:00:00Z' })).to.deep.equal(['beta feature']);
      expect(await list({ source_branch: 'b-gamma' })).to.deep.equal(['gamma']);
      expect(await list({ target_branch: 'master' })).to.have.length(3);
      expect(await list({ target_branch: 'other' })).to.deep.equal([]);
      expect(await list({ search: 'parser' })).to.deep.equal(['alpha fix']);
      expect(await list({ search: 'FEATURE' })).to.deep.equal(['beta feature']);
      expect(await list({ 'iids[]': [mrs['alpha fix'].iid, mrs.gamma.iid] })).to.deep.equal(['gamma', 'alpha fix']);
      expect(await list({ my_reaction_emoji: 'thumbsup' }, dev.token)).to.deep.equal(['alpha fix']);
      expect(await list({ my_reaction_emoji: 'thumbsup' }, owner.token)).to.deep.equal([]);
    });

    it('shows votes, view=simple keys, pagination headers, and the list schema', async () => {
      let r = await s.get(`/projects/${pub}/merge_requests`, { query: { per_page: 2 } });
      expect(r.body).to.have.length(2);
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.headers.get('x-total-pages')).to.equal('2');
      expectSchema(r.body, 'public_api/v4/merge_requests.json');
      r = await s.get(`/projects/${pub}/merge_requests`, { query: { labels: 'ui' } });
      expect(r.body[0]).to.include({ upvotes: 1, downvotes: 0 });
      // The lazy merge status check ran for the open one (no commits of its own: broken).
      expect(r.body[0].merge_status).to.equal('cannot_be_merged');
      expect(r.body[0].labels).to.deep.equal(['bug', 'ui']);
      expect(r.body[0].milestone.title).to.equal('v1');
      r = await s.get(`/projects/${pub}/merge_requests`, { query: { view: 'simple' } });
      for (const m of r.body) expect(Object.keys(m)).to.deep.equal(SIMPLE_KEYS);
      r = await s.get('/merge_requests', { token: owner.token, query: { view: 'simple' } });
      expect(Object.keys(r.body[0])).to.deep.equal(SIMPLE_KEYS);
      r = await s.get(`/projects/${pub}/merge_requests`, { query: { view: 'full' } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'view does not have a valid value' }]);
    });
  });
});
