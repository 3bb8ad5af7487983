// Each enforced application setting changes what the service does (GitLab 10.8): restricted
// visibility levels, default visibilities, default branch protection (with the real git
// client), the per-user project limit and external default for new users, password sign-in
// and the access protocol for git over HTTP, gravatar avatars.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { commit, git, gitOk, repoUrl, tempDir, workRepo } from '../transport/git_client.js';
import { insertMember } from '../../src/services/members/members.js';
import { hashPassword } from '../../src/services/users/users.js';
import { DEVELOPER } from '../../src/policy/levels.js';

type Account = { user: { id: number; username: string }; token: string };

describe('Application settings in effect', function () {
  this.timeout(60_000);
  let s: TestServer;
  let alice: Account;
  let dev: Account;

  const settings = async (json: Record<string, unknown>) => {
    const r = await s.put('/application/settings', { json });
    expect(r.status, r.text).to.equal(200);
    return r.body;
  };

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    dev = await s.createUser('devon');
  });
  after(async () => s?.close());

  describe('restricted_visibility_levels', () => {
    const RESTRICTED = (level: string) => ({ message: { visibility_level: [`${level} has been restricted by your GitLab administrator`] } });
    before(() => settings({ restricted_visibility_levels: ['public'] }));
    after(() => settings({ restricted_visibility_levels: [] }));

    it('refuses non-admins a restricted level for a new project, before any other check, and creates nothing', async () => {
      const r = await s.post('/projects', { token: alice.token, json: { name: 'Loud', visibility: 'public' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(RESTRICTED('public'));
      const bad = await s.post('/projects', { token: alice.token, json: { name: '', path: 'x y', visibility: 'public' } });
      expect(bad.body).to.deep.equal(RESTRICTED('public'));
      expect((await s.get('/projects', { token: alice.token, query: { owned: true } })).body).to.deep.equal([]);
      const fine = await s.post('/projects', { token: alice.token, json: { name: 'Quiet', visibility: 'internal' } });
      expect(fine.status, fine.text).to.equal(201);
      // Administrators may use any level.
      const admin = await s.post('/projects', { json: { name: 'Announced', visibility: 'public' } });
      expect(admin.status, admin.text).to.equal(201);
      expect(admin.body.visibility).to.equal('public');
    });

    it('refuses a change of a project to a restricted level (but not an unchanged one)', async () => {
      const p = (await s.post('/projects', { token: alice.token, json: { name: 'Shy', visibility: 'private' } })).body;
      const r = await s.put(`/projects/${p.id}`, { token: alice.token, json: { visibility: 'public', description: 'now public' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(RESTRICTED('public'));
      const after = (await s.get(`/projects/${p.id}`, { token: alice.token })).body;
      expect(after).to.include({ visibility: 'private', description: null });
      // An admin made it public; its owner may still save it as it is.
      expect((await s.put(`/projects/${p.id}`, { json: { visibility: 'public' } })).status).to.equal(200);
      const same = await s.put(`/projects/${p.id}`, { token: alice.token, json: { visibility: 'public', description: 'kept' } });
      expect(same.status, same.text).to.equal(200);
    });

    it('refuses a restricted level for a new group (GitLab\'s "Failed to save group") and a changed one', async () => {
      const r = await s.post('/groups', { token: alice.token, json: { name: 'Crowd', path: 'crowd', visibility: 'public' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: 'Failed to save group {:visibility_level=>["public has been restricted by your GitLab administrator"]}' });
      expect((await s.get('/groups/crowd', { token: null })).status).to.equal(404);
      const g = await s.post('/groups', { token: alice.token, json: { name: 'Club', path: 'club', visibility: 'internal' } });
      expect(g.status, g.text).to.equal(201);
      const u = await s.put(`/groups/${g.body.id}`, { token: alice.token, json: { visibility: 'public' } });
      expect(u.status).to.equal(400);
      expect(u.body).to.deep.equal(RESTRICTED('public'));
      expect((await s.get(`/groups/${g.body.id}`, { token: alice.token })).body.visibility).to.equal('internal');
    });

    it('gives a fork the closest level that is not restricted', async () => {
      const parent = (await s.post('/projects', { json: { name: 'Famous', visibility: 'public' } })).body;
      const fork = await s.post(`/projects/${parent.id}/fork`, { token: alice.token });
      expect(fork.status, fork.text).to.equal(201);
      expect(fork.body.visibility).to.equal('internal');
    });
  });

  describe('default visibilities', () => {
    after(() => settings({ default_project_visibility: 'private', default_group_visibility: 'private' }));

    it('apply to new projects and groups that name none', async () => {
      await settings({ default_project_visibility: 'internal', default_group_visibility: 'public' });
      const p = await s.post('/projects', { token: alice.token, json: { name: 'Defaulted' } });
      expect(p.body.visibility).to.equal('internal');
      const g = await s.post('/groups', { token: alice.token, json: { name: 'Open', path: 'open-house' } });
      expect(g.body.visibility).to.equal('public');
      const named = await s.post('/projects', { token: alice.token, json: { name: 'Named', visibility: 'private' } });
      expect(named.body.visibility).to.equal('private');
    });

    it('a restricted default is refused like a chosen one', async () => {
      await settings({ default_project_visibility: 'public', restricted_visibility_levels: ['public'] });
      const r = await s.post('/projects', { token: alice.token, json: { name: 'Defaulted loud' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
      await settings({ restricted_visibility_levels: [] });
    });
  });

  describe('default_projects_limit and user_default_external', () => {
    after(() => settings({ default_projects_limit: 100000, user_default_external: false }));

    const newUser = async (username: string, extra: Record<string, unknown> = {}) => {
      const r = await s.post('/users', { json: { username, name: username, email: `${username}@example.com`, password: 'long-enough-pw', ...extra } });
      expect(r.status, r.text).to.equal(201);
      const token = await s.post(`/users/${r.body.id}/impersonation_tokens`, { json: { name: 't', scopes: ['api'] } });
      return { user: r.body, token: token.body.token as string };
    };

    it('gives new users the limit; creating past it answers 403 as 10.8', async () => {
      await settings({ default_projects_limit: 1 });
      const u = await newUser('limited');
      expect(u.user.projects_limit).to.equal(1);
      expect(u.user.can_create_project).to.equal(true);
      expect((await s.post('/projects', { token: u.token, json: { name: 'only' } })).status).to.equal(201);
      const second = await s.post('/projects', { token: u.token, json: { name: 'second' } });
      expect(second.status).to.equal(403);
      expect(second.body).to.deep.equal({ message: ['Your project limit is 1 projects! Please contact your administrator to increase it'] });
      // Existing users keep theirs: the setting is a default.
      expect((await s.get(`/users/${alice.user.id}`)).body.projects_limit).to.equal(100000);
      await settings({ default_projects_limit: 0 });
      const none = await newUser('nolimit');
      const refused = await s.post('/projects', { token: none.token, json: { name: 'any' } });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ message: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
      // A user made non-external again gets the instance's default.
      await settings({ default_projects_limit: 5 });
      const ext = await newUser('was-external', { external: true });
      expect(ext.user.projects_limit).to.equal(0);
      const back = await s.put(`/users/${ext.user.id}`, { json: { external: false } });
      expect(back.body.projects_limit).to.equal(5);
    });

    it('makes new users external unless they are created otherwise', async () => {
      await settings({ user_default_external: true });
      const ext = await newUser('outsider');
      expect(ext.user).to.include({ external: true, projects_limit: 0, can_create_group: false });
      const inside = await newUser('insider', { external: false });
      expect(inside.user.external).to.equal(false);
      await settings({ user_default_external: false });
      expect((await newUser('regular')).user.external).to.equal(false);
    });
  });

  describe('gravatar_enabled', () => {
    after(() => settings({ gravatar_enabled: true }));
    it('shows avatar service pictures only while on', async () => {
      expect((await s.get(`/users/${alice.user.id}`)).body.avatar_url).to.match(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=80&d=identicon$/);
      await settings({ gravatar_enabled: false });
      expect((await s.get(`/users/${alice.user.id}`)).body.avatar_url).to.equal(null);
      expect((await s.get('/user', { token: alice.token })).body.avatar_url).to.equal(null);
    });
  });

  describe('default_branch_protection (with the git client)', () => {
    after(() => settings({ default_branch_protection: 2 }));

    /** A new project of alice's with devon as a developer; devon then pushes its first commit. */
    async function firstPushByDeveloper(name: string) {
      const p = (await s.post('/projects', { token: alice.token, json: { name } })).body;
      await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: dev.user.id, accessLevel: DEVELOPER });
      const work = await workRepo();
      const push = await git(['push', repoUrl(s, p.path_with_namespace, dev.token), 'master:master'], { cwd: work });
      return { p, work, push };
    }

    const rules = async (id: number) =>
      (await s.get(`/projects/${id}/protected_branches`)).body.map((r: any) => ({
        name: r.name,
        push: r.push_access_levels[0].access_level,
        merge: r.merge_access_levels[0].access_level,
      }));

    it('2: only masters may create the first branch; then it is protected for masters', async () => {
      await settings({ default_branch_protection: 2 });
      const { p, work, push } = await firstPushByDeveloper('full');
      expect(push.code).to.not.equal(0);
      expect(push.stderr).to.include('You are not allowed to push code to protected branches on this project.');
      await gitOk(['push', '-q', repoUrl(s, p.path_with_namespace, alice.token), 'master:master'], { cwd: work });
      expect(await rules(p.id)).to.deep.equal([{ name: 'master', push: 40, merge: 40 }]);
      await commit(work, { 'b.txt': 'b\n' });
      const again = await git(['push', repoUrl(s, p.path_with_namespace, dev.token), 'master:master'], { cwd: work });
      expect(again.code).to.not.equal(0);
      expect(again.stderr).to.include('You are not allowed to push code to protected branches on this project.');
    });

    it('1: developers may push, not force-push; the default branch is protected for developers', async () => {
      await settings({ default_branch_protection: 1 });
      const { p, work, push } = await firstPushByDeveloper('partial');
      expect(push.code, push.stderr).to.equal(0);
      expect(await rules(p.id)).to.deep.equal([{ name: 'master', push: 30, merge: 40 }]);
      await commit(work, { 'b.txt': 'b\n' });
      await gitOk(['push', '-q', repoUrl(s, p.path_with_namespace, dev.token), 'master:master'], { cwd: work });
      await gitOk(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
      await commit(work, { 'c.txt': 'c\n' });
      const force = await git(['push', '--force', repoUrl(s, p.path_with_namespace, dev.token), 'master:master'], { cwd: work });
      expect(force.code).to.not.equal(0);
      expect(force.stderr).to.include('You are not allowed to force push code to a protected branch on this project.');
    });

    it('0: nothing is protected; a developer may even force-push the default branch', async () => {
      await settings({ default_branch_protection: 0 });
      const { p, work, push } = await firstPushByDeveloper('open');
      expect(push.code, push.stderr).to.equal(0);
      expect(await rules(p.id)).to.deep.equal([]);
      await gitOk(['commit', '-q', '--amend', '-m', 'rewritten'], { cwd: work });
      await gitOk(['push', '-q', '--force', repoUrl(s, p.path_with_namespace, dev.token), 'master:master'], { cwd: work });
    });

    it('3 is not a value the API takes in 10.8', async () => {
      const r = await s.put('/application/settings', { json: { default_branch_protection: 3 } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'default_branch_protection does not have a valid value' });
    });

    it('also decides API writes to an empty repository', async () => {
      await settings({ default_branch_protection: 2 });
      const p = (await s.post('/projects', { token: alice.token, json: { name: 'api-first' } })).body;
      await insertMember(s.db, { sourceType: 'project', sourceId: p.id, userId: dev.user.id, accessLevel: DEVELOPER });
      const file = (token: string) => s.post(`/projects/${p.id}/repository/files/a.txt`, { token, json: { branch: 'master', content: 'a', commit_message: 'a' } });
      const refused = await file(dev.token);
      expect(refused.status).to.equal(400);
      expect(refused.body).to.deep.equal({ message: 'You are not allowed to push into this branch' });
      await settings({ default_branch_protection: 1 });
      expect((await file(dev.token)).status).to.equal(201);
      expect(await rules(p.id)).to.deep.equal([{ name: 'master', push: 30, merge: 40 }]);
    });
  });

  describe('git over HTTP sign-in', () => {
    let project: { path_with_namespace: string };
    before(async () => {
      project = (await s.post('/projects', { token: alice.token, json: { name: 'signin' } })).body;
      await s
        .db('users')
        .where({ id: alice.user.id })
        .update({ password_digest: await hashPassword('alice-password') });
    });
    after(() => settings({ password_authentication_enabled_for_git: true, enabled_git_access_protocol: 'nil' }));

    const clone = (user: string, password: string) => {
      const u = new URL(`${s.url}/${project.path_with_namespace}.git`);
      u.username = user;
      u.password = password;
      return git(['clone', '-q', u.toString(), path.join(tempDir(), 'c')]);
    };
    const infoRefs = (auth: string) =>
      fetch(`${s.url}/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, { headers: { Authorization: `Basic ${Buffer.from(auth).toString('base64')}` } });

    it('takes the account password only while password_authentication_enabled_for_git is on', async () => {
      expect((await clone('alice', 'alice-password')).code).to.equal(0);
      await settings({ password_authentication_enabled_for_git: false });
      const refused = await clone('alice', 'alice-password');
      expect(refused.code).to.not.equal(0);
      const r = await infoRefs('alice:alice-password');
      expect(r.status).to.equal(401);
      expect(r.headers.get('www-authenticate')).to.equal(null);
      expect(r.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await r.text()).to.equal(
        "HTTP Basic: Access denied\nYou must use a personal access token with 'api' scope for Git over HTTP.\n" + `You can generate one at ${s.url}/profile/personal_access_tokens`,
      );
      // A token still works; a bad one gets the same advice.
      expect((await clone('alice', alice.token)).code).to.equal(0);
      expect((await infoRefs('alice:not-a-token')).status).to.equal(401);
      await settings({ password_authentication_enabled_for_git: true });
      expect((await clone('alice', 'alice-password')).code).to.equal(0);
      const wrong = await infoRefs('alice:wrong');
      expect(wrong.status).to.equal(401);
      expect(wrong.headers.get('www-authenticate')).to.equal('Basic realm="GitLab"');
      expect(await wrong.text()).to.equal('HTTP Basic: Access denied\n');
    });

    it('refuses git over HTTP when enabled_git_access_protocol is ssh', async () => {
      await settings({ enabled_git_access_protocol: 'ssh' });
      const r = await infoRefs(`alice:${alice.token}`);
      expect(r.status).to.equal(403);
      expect(await r.text()).to.equal('Git access over HTTP is not allowed');
      await settings({ enabled_git_access_protocol: 'http' });
      expect((await infoRefs(`alice:${alice.token}`)).status).to.equal(200);
    });
  });
});
