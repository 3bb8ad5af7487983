// The namespaces API: a user's own namespace and the groups they belong to (every namespace for
// admins), searched and paged, or one by id or path; member counts for group owners.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { createNamespace } from '../../src/services/groups/namespaces.js';
import { insertMember } from '../../src/services/members/members.js';
import type { NamespaceRow, UserRow } from '../../src/store/rows.js';

const KEYS = ['id', 'name', 'path', 'kind', 'full_path', 'parent_id'];
const OWNER = 50;
const DEVELOPER = 30;

describe('Namespaces API', () => {
  let s: TestServer;
  let alice: { user: UserRow; token: string };
  let bob: { user: UserRow; token: string };
  let carol: UserRow;
  let aliceNs: NamespaceRow;
  let owned: NamespaceRow;
  let sub: NamespaceRow;
  let joined: NamespaceRow;
  let other: NamespaceRow;

  async function group(path: string, members: [number, number, string?][] = [], parent?: NamespaceRow, name = path): Promise<NamespaceRow> {
    const g = await s.db.transaction((tx) => createNamespace(tx, { kind: 'group', name, path, parent, visibilityLevel: 20 }));
    for (const [userId, accessLevel, requestedAt] of members) {
      await insertMember(s.db, { sourceType: 'group', sourceId: g.id, userId, accessLevel });
      if (requestedAt) await s.db('members').where({ source_id: g.id, user_id: userId }).update({ requested_at: requestedAt });
    }
    return g;
  }

  const paths = (body: { full_path: string }[]) => body.map((n) => n.full_path);

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    carol = (await s.createUser('carol')).user;
    const blocked = (await s.createUser('blocked-one')).user;
    await s.db('users').where({ id: blocked.id }).update({ state: 'blocked' });
    aliceNs = await s.db('namespaces').where({ kind: 'user', owner_id: alice.user.id }).first();

    owned = await group(
      'alpha-team',
      [
        [alice.user.id, OWNER],
        [bob.user.id, DEVELOPER],
        [blocked.id, DEVELOPER],
      ],
      undefined,
      'Alpha Team',
    );
    sub = await group(
      'alpha-sub',
      [
        [carol.id, DEVELOPER],
        [bob.user.id, DEVELOPER],
        [blocked.id, 10, '2020-01-01T00:00:00.000Z'],
      ],
      owned,
    );
    joined = await group('beta', [
      [alice.user.id, DEVELOPER],
      [bob.user.id, OWNER],
    ]);
    other = await group('gamma', [
      [bob.user.id, OWNER],
      [alice.user.id, DEVELOPER, '2020-01-01T00:00:00.000Z'],
    ]);
  });
  after(async () => s.close());

  describe('GET /namespaces', () => {
    it('needs a user', async () => {
      const r = await s.get('/namespaces', { token: null });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
    });

    it('lists the user’s own namespace and the groups they are a direct member of, by id', async () => {
      const r = await s.get('/namespaces', { token: alice.token });
      expect(r.status).to.equal(200);
      // Not subgroups reached through a parent, not access requests, not other people's.
      expect(paths(r.body)).to.deep.equal(['alice', 'alpha-team', 'beta']);
      expect(r.body[0]).to.deep.equal({ id: aliceNs.id, name: 'alice', path: 'alice', kind: 'user', full_path: 'alice', parent_id: null });
      expect(r.headers.get('x-total')).to.equal('3');
    });

    it('shows members_count_with_descendants only on groups the user owns', async () => {
      const r = await s.get('/namespaces', { token: alice.token });
      const [personal, alpha, beta] = r.body;
      expect(personal).to.have.all.keys(...KEYS);
      expect(alpha).to.deep.equal({
        id: owned.id,
        name: 'Alpha Team',
        path: 'alpha-team',
        kind: 'group',
        full_path: 'alpha-team',
        parent_id: null,
        // alice, bob (in both groups, counted once) and carol; not the blocked user nor the requester.
        members_count_with_descendants: 3,
      });
      expect(beta).to.have.all.keys(...KEYS);
    });

    it('lists every namespace to admins, with counts on every group', async () => {
      const r = await s.get('/namespaces', { query: { per_page: 100 } });
      expect(paths(r.body)).to.include.members(['root', 'alice', 'bob', 'carol', 'alpha-team', 'alpha-team/alpha-sub', 'beta', 'gamma']);
      const subgroup = r.body.find((n: { id: number }) => n.id === sub.id);
      expect(subgroup).to.deep.equal({
        id: sub.id,
        name: 'alpha-sub',
        path: 'alpha-sub',
        kind: 'group',
        full_path: 'alpha-team/alpha-sub',
        parent_id: owned.id,
        members_count_with_descendants: 2,
      });
      expect(r.body.find((n: { id: number }) => n.id === other.id).members_count_with_descendants).to.equal(1);
      expect(r.body.find((n: { full_path: string }) => n.full_path === 'alice')).to.have.all.keys(...KEYS);
    });

    it('searches names and paths: parts of 3+ characters, or the whole of either', async () => {
      expect(paths((await s.get('/namespaces', { token: alice.token, query: { search: 'TEAM' } })).body)).to.deep.equal(['alpha-team']);
      expect(paths((await s.get('/namespaces', { token: alice.token, query: { search: 'alpha team' } })).body)).to.deep.equal(['alpha-team']);
      expect(paths((await s.get('/namespaces', { token: alice.token, query: { search: 'ta' } })).body)).to.deep.equal([]);
      expect(paths((await s.get('/namespaces', { token: bob.token, query: { search: 'bob' } })).body)).to.deep.equal(['bob']);
      expect(paths((await s.get('/namespaces', { query: { search: 'alpha' } })).body)).to.deep.equal(['alpha-team', 'alpha-team/alpha-sub']);
    });

    it('pages with GitLab headers', async () => {
      const r = await s.get('/namespaces', { token: alice.token, query: { per_page: 2, page: 2 } });
      expect(paths(r.body)).to.deep.equal(['beta']);
      expect(r.headers.get('x-total-pages')).to.equal('2');
      expect(r.headers.get('x-prev-page')).to.equal('1');
      expect(r.headers.get('link')).to.match(/rel="prev"/);
      const bad = await s.get('/namespaces', { token: alice.token, query: { per_page: 'lots' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'per_page is invalid' });
    });
  });

  describe('GET /namespaces/:id', () => {
    it('needs a user', async () => {
      const r = await s.get(`/namespaces/${aliceNs.id}`, { token: null });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
    });

    it('finds a namespace by id or by (URL-encoded, any case) full path', async () => {
      const byId = await s.get(`/namespaces/${aliceNs.id}`, { token: alice.token });
      expect(byId.status).to.equal(200);
      expect(byId.body).to.deep.equal({ id: aliceNs.id, name: 'alice', path: 'alice', kind: 'user', full_path: 'alice', parent_id: null });
      const byPath = await s.get('/namespaces/ALICE', { token: alice.token });
      expect(byPath.body.id).to.equal(aliceNs.id);
      // Membership of a parent group gives access to its subgroups.
      const nested = await s.get('/namespaces/alpha-team%2Falpha-sub', { token: alice.token });
      expect(nested.status).to.equal(200);
      expect(nested.body).to.include({ id: sub.id, full_path: 'alpha-team/alpha-sub', parent_id: owned.id, members_count_with_descendants: 2 });
      const dev = await s.get(`/namespaces/${joined.id}`, { token: alice.token });
      expect(dev.body).to.have.all.keys(...KEYS);
    });

    it('answers 404 Namespace Not Found for what the user may not read', async () => {
      const cases = [
        `/namespaces/${other.id}`, // only an access request
        '/namespaces/bob', // someone else's personal namespace
        '/namespaces/999999',
        '/namespaces/no-such-thing',
        '/namespaces/alpha-team%2Fnope',
      ];
      for (const p of cases) {
        const r = await s.get(p, { token: alice.token });
        expect(r.status, p).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 Namespace Not Found' });
      }
      // A public group is still not readable as a namespace without membership.
      const daveView = await s.get(`/namespaces/${joined.id}`, { token: (await s.createUser('dave')).token });
      expect(daveView.status).to.equal(404);
      expect(daveView.body).to.deep.equal({ message: '404 Namespace Not Found' });
    });

    it('shows admins any namespace', async () => {
      const r = await s.get('/namespaces/bob');
      expect(r.status).to.equal(200);
      expect(r.body.kind).to.equal('user');
      expect((await s.get(`/namespaces/${other.id}`)).body.members_count_with_descendants).to.equal(1);
    });
  });
});
