// "Nothing a client sends is silently dropped", continued (test/helpers/round_trip.ts): members, branches
// and their protection, shares, keys, tokens, notes, tags and releases, files.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { roundTrip } from '../helpers/round_trip.js';
import { createProject } from '../helpers/projects.js';
import { makeKey } from '../helpers/ssh_keys.js';
import type { UserRow } from '../../src/store/rows.js';

describe('Every documented parameter is kept (round trips, continued)', () => {
  let s: TestServer;
  let owner: { user: UserRow; token: string };
  let other: { user: UserRow; token: string };
  let project: { id: number; path_with_namespace: string };
  let group: { id: number };

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('owner');
    other = await s.createUser('other');
    project = await createProject(s, owner.token, { name: 'more', initialize_with_readme: true });
    const g = await s.post('/groups', { json: { name: 'Sharing', path: 'sharing', visibility: 'internal' } });
    group = g.body;
  });
  after(() => s.close());

  it('project and group members: add and change', async () => {
    for (const source of [`/projects/${project.id}`, `/groups/${group.id}`]) {
      const token = source.startsWith('/projects') ? owner.token : undefined;
      await roundTrip(s, {
        name: `POST ${source}/members`,
        method: 'POST',
        path: `${source}/members`,
        token,
        params: { user_id: other.user.id, access_level: 30, expires_at: '2031-01-02' },
        readBack: () => `${source}/members/${other.user.id}`,
        shows: { user_id: { id: other.user.id } },
      });
      await roundTrip(s, {
        name: `PUT ${source}/members`,
        method: 'PUT',
        path: `${source}/members/${other.user.id}`,
        token,
        params: { access_level: 40, expires_at: '2032-02-03' },
        readBack: () => `${source}/members/${other.user.id}`,
      });
    }
  });

  it('branches and protected branches', async () => {
    await roundTrip(s, {
      name: 'POST branch',
      method: 'POST',
      path: `/projects/${project.id}/repository/branches`,
      token: owner.token,
      params: { branch: 'stable', ref: 'master' },
      readBack: () => `/projects/${project.id}/repository/branches/stable`,
      shows: { branch: { name: 'stable' }, ref: {} },
      checkedBy: {
        ref: async (w) => {
          const master = await s.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token });
          expect(w.commit.id).to.equal(master.body.commit.id);
        },
      },
    });
    await roundTrip(s, {
      name: 'POST protected branch',
      method: 'POST',
      path: `/projects/${project.id}/protected_branches`,
      token: owner.token,
      params: { name: 'stable', push_access_level: 0, merge_access_level: 40 },
      readBack: () => `/projects/${project.id}/protected_branches/stable`,
      shows: {
        push_access_level: { 'push_access_levels.0.access_level': 0 },
        merge_access_level: { 'merge_access_levels.0.access_level': 40 },
      },
    });
  });

  it('project share with a group', async () => {
    await roundTrip(s, {
      name: 'POST share',
      method: 'POST',
      path: `/projects/${project.id}/share`,
      token: owner.token,
      params: { group_id: group.id, group_access: 20, expires_at: '2033-03-04' },
      readBack: () => `/projects/${project.id}`,
      // The answer is the link (ProjectGroupLink); the project shows it in shared_with_groups.
      pick: (p) => p.shared_with_groups.map((l: { group_id: number; group_access_level: number }) => ({ group_id: l.group_id, group_access: l.group_access_level }))[0],
      checkedBy: {
        // shared_with_groups shows no expiry: the answer and the stored link do.
        expires_at: async (w) => {
          expect(w.expires_at).to.equal('2033-03-04');
          const link = await s.db('project_group_links').where({ project_id: project.id, group_id: group.id }).first();
          expect(link.expires_at).to.equal('2033-03-04');
        },
      },
    });
  });

  it('deploy keys, user keys and impersonation tokens', async () => {
    const deployKey = await makeKey('ed25519', 'deploy@wharf');
    const dk = await roundTrip(s, {
      name: 'POST deploy key',
      method: 'POST',
      path: `/projects/${project.id}/deploy_keys`,
      token: owner.token,
      params: { title: 'deployer', key: deployKey.publicKey, can_push: true },
      readBack: (w) => `/projects/${project.id}/deploy_keys/${w.id}`,
    });
    await roundTrip(s, {
      name: 'PUT deploy key',
      method: 'PUT',
      path: `/projects/${project.id}/deploy_keys/${dk.id}`,
      token: owner.token,
      params: { title: 'deployer 2', can_push: false },
      readBack: (w) => `/projects/${project.id}/deploy_keys/${w.id}`,
    });
    const userKey = await makeKey('ed25519', 'user@wharf');
    await roundTrip(s, {
      name: 'POST user key',
      method: 'POST',
      path: '/user/keys',
      token: other.token,
      params: { title: 'laptop', key: userKey.publicKey },
      readBack: (w) => `/user/keys/${w.id}`,
    });
    await roundTrip(s, {
      name: 'POST impersonation token',
      method: 'POST',
      path: `/users/${other.user.id}/impersonation_tokens`,
      params: { name: 'robot', expires_at: '2034-04-05', scopes: ['api', 'read_user'] },
      readBack: (w) => `/users/${other.user.id}/impersonation_tokens/${w.id}`,
    });
  });

  it('notes on an issue: create (with created_at) and edit', async () => {
    const issue = (await s.post(`/projects/${project.id}/issues`, { token: owner.token, json: { title: 'noted' } })).body;
    const n = await roundTrip(s, {
      name: 'POST note',
      method: 'POST',
      path: `/projects/${project.id}/issues/${issue.iid}/notes`,
      token: owner.token,
      params: { body: 'first!', created_at: '2019-05-06T07:08:09Z' },
      readBack: (w) => `/projects/${project.id}/issues/${issue.iid}/notes/${w.id}`,
      shows: { created_at: { created_at: '2019-05-06T07:08:09.000Z' } },
    });
    await roundTrip(s, {
      name: 'PUT note',
      method: 'PUT',
      path: `/projects/${project.id}/issues/${issue.iid}/notes/${n.id}`,
      token: owner.token,
      params: { body: 'edited' },
      readBack: (w) => `/projects/${project.id}/issues/${issue.iid}/notes/${w.id}`,
    });
  });

  it('tags with a message and release notes, and releases', async () => {
    await roundTrip(s, {
      name: 'POST tag',
      method: 'POST',
      path: `/projects/${project.id}/repository/tags`,
      token: owner.token,
      params: { tag_name: 'v1.0', ref: 'master', message: 'Version one', release_description: 'Notes' },
      readBack: () => `/projects/${project.id}/repository/tags/v1.0`,
      shows: { tag_name: { name: 'v1.0' }, ref: {}, release_description: { 'release.description': 'Notes' } },
      checkedBy: {
        ref: async (w) => {
          const master = await s.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token });
          expect(w.commit.id).to.equal(master.body.commit.id);
        },
      },
    });
    await roundTrip(s, {
      name: 'PUT release',
      method: 'PUT',
      path: `/projects/${project.id}/repository/tags/v1.0/release`,
      token: owner.token,
      params: { description: 'Better notes' },
      readBack: () => `/projects/${project.id}/repository/tags/v1.0`,
      pick: (tag) => tag.release,
    });
  });

  it('repository files: create and update, with the commit author', async () => {
    const read = (ref: string) => `/projects/${project.id}/repository/files/docs%2Fnote.txt?ref=${ref}`;
    const fileParams = (content: string) => ({
      branch: 'docs',
      start_branch: 'master',
      content: Buffer.from(content).toString('base64'),
      encoding: 'base64',
      commit_message: `write ${content}`,
      author_email: 'writer@example.com',
      author_name: 'Writer',
    });
    const checks = (content: string) => ({
      branch: async () => expect((await s.get(read('docs'), { token: owner.token })).status).to.equal(200),
      start_branch: async () => {
        const docs = await s.get(`/projects/${project.id}/repository/commits?ref_name=docs`, { token: owner.token });
        const master = await s.get(`/projects/${project.id}/repository/branches/master`, { token: owner.token });
        expect(docs.body.map((c: { id: string }) => c.id)).to.include(master.body.commit.id);
      },
      // Stored decoded: the file holds the text, not its base64.
      content: async () => expect(Buffer.from((await s.get(read('docs'), { token: owner.token })).body.content, 'base64').toString()).to.equal(content),
      encoding: async () =>
        expect((await s.get(`${read('docs')}`.replace('/files/docs%2Fnote.txt?ref=', '/files/docs%2Fnote.txt/raw?ref='), { token: owner.token })).text).to.equal(content),
      commit_message: async () => expect((await s.get(`/projects/${project.id}/repository/commits/docs`, { token: owner.token })).body.title).to.equal(`write ${content}`),
      author_email: async () => expect((await s.get(`/projects/${project.id}/repository/commits/docs`, { token: owner.token })).body.author_email).to.equal('writer@example.com'),
      author_name: async () => expect((await s.get(`/projects/${project.id}/repository/commits/docs`, { token: owner.token })).body.author_name).to.equal('Writer'),
    });
    await roundTrip(s, {
      name: 'POST file',
      method: 'POST',
      path: `/projects/${project.id}/repository/files/docs%2Fnote.txt`,
      token: owner.token,
      params: fileParams('one'),
      readBack: () => read('docs'),
      checkedBy: checks('one'),
    });
    const { start_branch: _unused, ...update } = fileParams('two');
    void _unused;
    await roundTrip(s, {
      name: 'PUT file',
      method: 'PUT',
      path: `/projects/${project.id}/repository/files/docs%2Fnote.txt`,
      token: owner.token,
      params: update,
      readBack: () => read('docs'),
      checkedBy: checks('two'),
    });
  });
});
