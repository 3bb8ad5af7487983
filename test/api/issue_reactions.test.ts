// Award emoji in issue lists (GitLab 10.8 IssuableFinder#by_my_reaction_emoji, Awardable.awarded,
// API::Entities::IssueBasic upvotes/downvotes): `my_reaction_emoji` keeps the issues the current
// user awarded that exact name, alone and with other filters, on the three lists; only the
// user's own awards on issues count; upvotes/downvotes count thumbsup/thumbsdown of everyone.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';

type Issue = { id: number; iid: number; project_id: number; title: string };

describe('Issue reactions: my_reaction_emoji and votes', () => {
  const { s, owner, dev, reporter, guest } = useServerWithRoles();
  let groupId: number;
  let p: number; // private project in the group
  let q: number; // private project in the owner's namespace
  const issues: Record<string, Issue> = {};

  async function create(project: number, key: string, body: Record<string, unknown>, token = owner.token) {
    const r = await s.post(`/projects/${project}/issues`, { token, json: body });
    expect(r.status, r.text).to.equal(201);
    issues[key] = r.body;
  }

  async function award(key: string, name: string, who: Account) {
    const i = issues[key];
    const r = await s.post(`/projects/${i.project_id}/issues/${i.iid}/award_emoji`, { token: who.token, json: { name } });
    expect(r.status, r.text).to.equal(201);
  }

  /** Titles of a list, as `who` sees it. */
  async function titles(path: string, who: Account, query: Record<string, string> = {}) {
    const r = await s.get(path, { token: who.token, query: { per_page: '100', ...query } });
    expect(r.status, r.text).to.equal(200);
    expectSchema(r.body, 'public_api/v4/issues.json');
    expect(r.headers.get('x-total'), 'X-Total counts what the list holds').to.equal(String(r.body.length));
    return (r.body as { title: string }[]).map((i) => i.title);
  }

  before(async () => {
    const g = await s.post('/groups', { token: owner.token, json: { name: 'reactgroup', path: 'reactgroup', visibility: 'private' } });
    expect(g.status, g.text).to.equal(201);
    groupId = g.body.id;
    p = (await projectWithRoles(s, owner, { dev, reporter, guest }, { name: 'react-p', namespace_id: groupId })).id;
    q = (await projectWithRoles(s, owner, { dev, reporter, guest }, { name: 'react-q' })).id;

    // Created oldest first: lists (created_at desc, id desc) show them newest first.
    await create(p, 'alpha', { title: 'Alpha', labels: 'bug' });
    await create(p, 'beta', { title: 'Beta', labels: 'bug' });
    await create(p, 'gamma', { title: 'Gamma' });
    await create(q, 'delta', { title: 'Delta' }, dev.token);
    await create(q, 'epsilon', { title: 'Epsilon' });
    await create(p, 'secret', { title: 'Secret' });
    const closed = await s.put(`/projects/${p}/issues/${issues.gamma.iid}`, { token: owner.token, json: { state_event: 'close' } });
    expect(closed.status, closed.text).to.equal(200);

    // No one votes on what they authored (GitLab refuses it): the owner gives hearts only.
    await award('alpha', 'thumbsup', dev);
    await award('gamma', 'thumbsup', dev);
    await award('epsilon', 'thumbsup', dev);
    await award('beta', 'heart', dev);
    await award('delta', 'heart', dev);
    await award('alpha', 'thumbsup', reporter);
    await award('beta', 'thumbsup', reporter);
    await award('secret', 'thumbsup', reporter);
    await award('alpha', 'thumbsdown', guest);
    await award('beta', 'thumbsup', guest);
    await award('secret', 'heart', owner);
    // The guest awarded Secret before it became confidential: the award stays, the issue hides.
    await award('secret', 'thumbsup', guest);
    const hidden = await s.put(`/projects/${p}/issues/${issues.secret.iid}`, { token: owner.token, json: { confidential: true } });
    expect(hidden.status, hidden.text).to.equal(200);
    // An award of the same name and id on another kind of target is not an award on the issue.
    const stamp = new Date().toISOString();
    await s.db('award_emoji').insert({
      awardable_type: 'MergeRequest',
      awardable_id: issues.gamma.id,
      user_id: reporter.user.id,
      name: 'thumbsup',
      created_at: stamp,
      updated_at: stamp,
    });
  });

  describe('my_reaction_emoji', () => {
    it('keeps the issues the user awarded that emoji on a project list', async () => {
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: 'thumbsup' })).to.deep.equal(['Gamma', 'Alpha']);
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: 'heart' })).to.deep.equal(['Beta']);
    });

    it('combines with state, labels, search, iids, author and order', async () => {
      const path = `/projects/${p}/issues`;
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', state: 'opened' })).to.deep.equal(['Alpha']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', state: 'closed' })).to.deep.equal(['Gamma']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', labels: 'bug' })).to.deep.equal(['Alpha']);
      expect(await titles(path, dev, { my_reaction_emoji: 'heart', labels: 'bug' })).to.deep.equal(['Beta']);
      expect(await titles(path, dev, { my_reaction_emoji: 'heart', labels: 'No Label' })).to.deep.equal([]);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', search: 'gamma' })).to.deep.equal(['Gamma']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', 'iids[]': String(issues.alpha.iid) })).to.deep.equal(['Alpha']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', sort: 'asc' })).to.deep.equal(['Alpha', 'Gamma']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', order_by: 'updated_at', sort: 'asc' })).to.deep.equal(['Alpha', 'Gamma']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', author_id: String(owner.user.id) })).to.deep.equal(['Gamma', 'Alpha']);
      expect(await titles(path, dev, { my_reaction_emoji: 'thumbsup', author_id: String(dev.user.id) })).to.deep.equal([]);
    });

    it('works on the group list and on /issues with every scope', async () => {
      expect(await titles(`/groups/${groupId}/issues`, dev, { my_reaction_emoji: 'thumbsup' })).to.deep.equal(['Gamma', 'Alpha']);
      expect(await titles(`/groups/${groupId}/issues`, dev, { my_reaction_emoji: 'thumbsup', state: 'closed' })).to.deep.equal(['Gamma']);
      expect(await titles('/issues', dev, { my_reaction_emoji: 'thumbsup', scope: 'all' })).to.deep.equal(['Epsilon', 'Gamma', 'Alpha']);
      expect(await titles('/issues', dev, { my_reaction_emoji: 'thumbsup', scope: 'all', state: 'opened' })).to.deep.equal(['Epsilon', 'Alpha']);
      expect(await titles('/issues', dev, { my_reaction_emoji: 'heart', scope: 'all' })).to.deep.equal(['Delta', 'Beta']);
      // /issues defaults to created-by-me: of the developer's hearts, Delta is theirs.
      expect(await titles('/issues', dev, { my_reaction_emoji: 'heart' })).to.deep.equal(['Delta']);
      expect(await titles('/issues', dev, { my_reaction_emoji: 'thumbsup' })).to.deep.equal([]);
      expect(await titles('/issues', dev, { my_reaction_emoji: 'thumbsup', scope: 'assigned-to-me' })).to.deep.equal([]);
    });

    it("ignores other users' awards and awards on other kinds of target", async () => {
      expect(await titles(`/projects/${p}/issues`, reporter, { my_reaction_emoji: 'thumbsup' })).to.deep.equal(['Secret', 'Beta', 'Alpha']);
      expect(await titles(`/projects/${p}/issues`, owner, { my_reaction_emoji: 'heart' })).to.deep.equal(['Secret']);
      expect(await titles(`/projects/${p}/issues`, owner, { my_reaction_emoji: 'thumbsup' })).to.deep.equal([]);
      expect(await titles('/issues', reporter, { my_reaction_emoji: 'heart', scope: 'all' })).to.deep.equal([]);
      expect(await titles(`/groups/${groupId}/issues`, guest, { my_reaction_emoji: 'thumbsdown' })).to.deep.equal(['Alpha']);
    });

    it('matches the exact name only and still hides what the user may not read', async () => {
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: 'thumbs' })).to.deep.equal([]);
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: 'ThumbsUp' })).to.deep.equal([]);
      // 10.8 has no None/Any here: they are names like any other, awarded by nobody.
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: 'Any' })).to.deep.equal([]);
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: 'None' })).to.deep.equal([]);
      // The guest's thumbsup on Secret predates its confidentiality: still hidden from the guest.
      expect(await titles(`/projects/${p}/issues`, guest, { my_reaction_emoji: 'thumbsup' })).to.deep.equal(['Beta']);
      expect(await titles('/issues', guest, { my_reaction_emoji: 'thumbsup', scope: 'all' })).to.deep.equal(['Beta']);
      expect(await titles(`/groups/${groupId}/issues`, guest, { my_reaction_emoji: 'thumbsup' })).to.deep.equal(['Beta']);
    });

    it('an empty value does not filter', async () => {
      expect(await titles(`/projects/${p}/issues`, dev, { my_reaction_emoji: '' })).to.deep.equal(['Secret', 'Gamma', 'Beta', 'Alpha']);
    });
  });

  describe('upvotes and downvotes', () => {
    it('count thumbsup and thumbsdown of every user in lists', async () => {
      const r = await s.get(`/projects/${p}/issues`, { token: owner.token });
      expect(r.status, r.text).to.equal(200);
      const votes = Object.fromEntries((r.body as { title: string; upvotes: number; downvotes: number }[]).map((i) => [i.title, [i.upvotes, i.downvotes]]));
      expect(votes).to.deep.equal({ Alpha: [2, 1], Beta: [2, 0], Gamma: [1, 0], Secret: [2, 0] });
      const all = await s.get('/issues', { token: dev.token, query: { scope: 'all', search: 'epsilon' } });
      expect(all.body.map((i: { upvotes: number; downvotes: number }) => [i.upvotes, i.downvotes])).to.deep.equal([[1, 0]]);
      const group = await s.get(`/groups/${groupId}/issues`, { token: dev.token, query: { labels: 'bug' } });
      expect(group.body.map((i: { upvotes: number }) => i.upvotes)).to.deep.equal([2, 2]);
    });

    it('count on a single issue too', async () => {
      const r = await s.get(`/projects/${p}/issues/${issues.alpha.iid}`, { token: dev.token });
      expect(r.status, r.text).to.equal(200);
      expect([r.body.upvotes, r.body.downvotes]).to.deep.equal([2, 1]);
      const g = await s.get(`/projects/${p}/issues/${issues.gamma.iid}`, { token: dev.token });
      expect([g.body.upvotes, g.body.downvotes], 'the merge request award is not counted').to.deep.equal([1, 0]);
    });
  });

  // The lists start from a selective filter's set when it keeps few issues and walk the list
  // in order when it keeps many (the choice depends on the total): both must give the same pages.
  describe('page shapes', () => {
    let r: number;
    before(async () => {
      r = (await projectWithRoles(s, owner, { dev, guest }, { name: 'react-shapes', namespace_id: groupId })).id;
      for (let n = 1; n <= 12; n++) {
        const body: Record<string, unknown> = { title: `Shape ${n}`, labels: n % 4 === 0 ? 'rare' : 'common,shape', confidential: n === 5 };
        if (n % 3 !== 0) body.assignee_ids = [dev.user.id];
        await create(r, `shape${n}`, body);
        if (n !== 7) await award(`shape${n}`, 'heart', dev);
      }
    });

    async function pages(path: string, who: Account, query: Record<string, string>) {
      const whole = await s.get(path, { token: who.token, query: { ...query, per_page: '100' } });
      expect(whole.status, whole.text).to.equal(200);
      const seen: string[] = [];
      for (let page = 1; page <= whole.body.length + 1; page++) {
        const one = await s.get(path, { token: who.token, query: { ...query, per_page: '1', page: String(page) } });
        expect(one.status, one.text).to.equal(200);
        expect(one.headers.get('x-total')).to.equal(String(whole.body.length));
        seen.push(...one.body.map((i: { title: string }) => i.title));
      }
      expect(seen).to.deep.equal(whole.body.map((i: { title: string }) => i.title));
      return seen;
    }

    it('gives the same issues one by one as in one page, with any filter and order', async () => {
      const path = `/projects/${r}/issues`;
      const all = ['Shape 12', 'Shape 11', 'Shape 10', 'Shape 9', 'Shape 8', 'Shape 7', 'Shape 6', 'Shape 5', 'Shape 4', 'Shape 3', 'Shape 2', 'Shape 1'];
      expect(await pages(path, dev, { labels: 'common,shape' })).to.deep.equal(all.filter((t) => Number(t.slice(6)) % 4 !== 0));
      expect(await pages(path, dev, { labels: 'rare' })).to.deep.equal(['Shape 12', 'Shape 8', 'Shape 4']);
      expect(await pages(path, dev, { assignee_id: String(dev.user.id), sort: 'asc' })).to.deep.equal(all.filter((t) => Number(t.slice(6)) % 3 !== 0).reverse());
      expect(await pages(path, dev, { my_reaction_emoji: 'heart', order_by: 'updated_at' })).to.have.length(11);
      expect(await pages(path, guest, { author_id: String(owner.user.id) })).to.deep.equal(all.filter((t) => t !== 'Shape 5'));
      expect(await pages(`/groups/${groupId}/issues`, dev, { my_reaction_emoji: 'heart', labels: 'shape' })).to.deep.equal(
        all.filter((t) => Number(t.slice(6)) % 4 !== 0 && t !== 'Shape 7'),
      );
      const mine = await pages('/issues', dev, { scope: 'assigned-to-me' });
      expect(mine).to.deep.equal(all.filter((t) => Number(t.slice(6)) % 3 !== 0));
      expect(await pages('/issues', guest, { scope: 'all', labels: 'common' })).to.deep.equal(all.filter((t) => Number(t.slice(6)) % 4 !== 0 && t !== 'Shape 5'));
    });

    it('answers an empty page past the end with the total', async () => {
      const res = await s.get(`/projects/${r}/issues`, { token: dev.token, query: { labels: 'rare', per_page: '2', page: '3' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal([]);
      expect(res.headers.get('x-total')).to.equal('3');
      expect(res.headers.get('x-total-pages')).to.equal('2');
    });
  });
});
