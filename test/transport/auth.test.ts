// Who may clone and push what, and GitLab 10.8's answers when they may not: 401 with a Basic
// challenge (git prompts), 403 with GitAccess's message, 404 for a project one cannot see.
import path from 'node:path';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { insertMember } from '../../src/services/members/members.js';
import { hashPassword } from '../../src/services/users/users.js';
import { GUEST, REPORTER, DEVELOPER, MASTER } from '../../src/policy/levels.js';
import type { UserRow } from '../../src/store/rows.js';
import { git, gitOk, repoUrl, tempDir, workRepo } from './git_client.js';

type Account = { user: UserRow; token: string };

const DENIED = 'HTTP Basic: Access denied\n';

describe('git smart HTTP: authentication and permissions', function () {
  this.timeout(60_000);
  let s: TestServer;
  let owner: Account;
  const accounts: Record<string, Account> = {};
  const projects: Record<string, { id: number; path: string }> = {};

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('owen');
    for (const name of ['stranger', 'guest', 'reporter', 'developer', 'master']) accounts[name] = await s.createUser(name);
    accounts.external = await s.createUser('extern', { external: true });
    accounts.reader = await s.createUser('reader', { scopes: ['read_repository'] });
    accounts.profile = await s.createUser('profile', { scopes: ['read_user'] });
    const work = await workRepo();
    for (const visibility of ['private', 'internal', 'public']) {
      const r = await s.post('/projects', { json: { name: `${visibility}-proj`, visibility }, token: owner.token });
      projects[visibility] = { id: r.body.id, path: r.body.path_with_namespace };
      await gitOk(['push', '-q', repoUrl(s, r.body.path_with_namespace, owner.token), 'master:master', 'master:open'], { cwd: work });
      const levels: [string, number][] = [
        ['guest', GUEST],
        ['reporter', REPORTER],
        ['developer', DEVELOPER],
        ['master', MASTER],
        ['reader', DEVELOPER],
      ];
      for (const [name, level] of levels) {
        await insertMember(s.db, { sourceType: 'project', sourceId: r.body.id, userId: accounts[name].user.id, accessLevel: level });
      }
    }
  });
  after(async () => s.close());

  const tokenOf = (who: string) => (who === 'anonymous' ? undefined : who === 'owner' ? owner.token : accounts[who].token);

  async function cloneAs(who: string, visibility: string) {
    return git(['clone', '-q', repoUrl(s, projects[visibility].path, tokenOf(who)), path.join(tempDir(), 'c')]);
  }

  async function pushAs(who: string, visibility: string) {
    const work = await workRepo([{ [`${who}.txt`]: `${who}\n` }]);
    return git(['push', repoUrl(s, projects[visibility].path, tokenOf(who)), `master:refs/heads/by-${who}`], { cwd: work });
  }

  // [who, visibility, clone outcome, push outcome]: 'ok' or the text git prints.
  const NOT_FOUND = 'not found';
  const PROMPT = 'could not read Username'; // 401: git wants credentials
  const cases: [string, string, string, string][] = [
    ['anonymous', 'public', 'ok', PROMPT],
    ['anonymous', 'internal', PROMPT, PROMPT],
    ['anonymous', 'private', PROMPT, PROMPT],
    ['stranger', 'public', 'ok', 'You are not allowed to push code to this project.'],
    ['stranger', 'internal', 'ok', 'You are not allowed to push code to this project.'],
    ['stranger', 'private', NOT_FOUND, NOT_FOUND],
    ['external', 'internal', NOT_FOUND, NOT_FOUND],
    ['guest', 'private', 'You are not allowed to download code from this project.', 'You are not allowed to push code to this project.'],
    ['reporter', 'private', 'ok', 'You are not allowed to push code to this project.'],
    ['developer', 'private', 'ok', 'ok'],
    ['master', 'private', 'ok', 'ok'],
    ['reader', 'private', 'ok', 'You are not allowed to upload code.'],
    // git sends credentials only after a 401, so a public clone goes through anonymously.
    ['profile', 'public', 'ok', 'You are not allowed to upload code.'],
  ];
  for (const [who, visibility, clone, push] of cases) {
    it(`${who} on ${visibility === 'internal' ? 'an' : 'a'} ${visibility} project: clone ${clone === 'ok' ? 'works' : 'refused'}, push ${push === 'ok' ? 'works' : 'refused'}`, async () => {
      const c = await cloneAs(who, visibility);
      if (clone === 'ok') expect(c.code, c.stderr).to.equal(0);
      else {
        expect(c.code).to.not.equal(0);
        expect(c.stderr).to.contain(clone);
      }
      const p = await pushAs(who, visibility);
      if (push === 'ok') {
        expect(p.code, p.stderr).to.equal(0);
        const branches = await s.get(`/projects/${projects[visibility].id}/repository/branches`);
        expect(branches.body.map((b: { name: string }) => b.name)).to.include(`by-${who}`);
      } else {
        expect(p.code).to.not.equal(0);
        expect(p.stderr).to.contain(push);
      }
    });
  }

  async function infoRefs(fullPath: string, opts: { service?: string; auth?: string } = {}) {
    const q = opts.service === undefined ? '' : `?service=${opts.service}`;
    const headers: Record<string, string> = {};
    if (opts.auth !== undefined) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    const res = await fetch(`${s.url}/${fullPath}.git/info/refs${q}`, { headers, redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  function expectDenied(r: { status: number; headers: Headers; text: string }) {
    expect(r.status).to.equal(401);
    expect(r.text).to.equal(DENIED);
    expect(r.headers.get('www-authenticate')).to.equal('Basic realm="GitLab"');
    expect(r.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
  }

  function expectText(r: { status: number; headers: Headers; text: string }, status: number, text: string) {
    expect(r.status).to.equal(status);
    expect(r.text).to.equal(text);
    expect(r.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(r.headers.get('www-authenticate')).to.equal(null);
  }

  it('advertises refs with the smart content type, no caching', async () => {
    const r = await infoRefs(projects.public.path, { service: 'git-upload-pack' });
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('application/x-git-upload-pack-advertisement');
    expect(r.headers.get('cache-control')).to.contain('no-cache');
    expect(r.text.startsWith('001e# service=git-upload-pack\n0000')).to.equal(true);
    expect(r.text).to.contain('refs/heads/master');
    const push = await infoRefs(projects.public.path, { service: 'git-receive-pack', auth: `x:${accounts.developer.token}` });
    expect(push.status).to.equal(200);
    expect(push.headers.get('content-type')).to.equal('application/x-git-receive-pack-advertisement');
    expect(push.text.startsWith('001f# service=git-receive-pack\n0000')).to.equal(true);
  });

  it('answers 401 with a Basic challenge to the anonymous, whether the project exists or not', async () => {
    expectDenied(await infoRefs(projects.private.path, { service: 'git-upload-pack' }));
    expectDenied(await infoRefs('owen/no-such-project', { service: 'git-upload-pack' }));
    expectDenied(await infoRefs(projects.public.path, { service: 'git-receive-pack' }));
  });

  it('answers 401 to bad, revoked and expired tokens, even on a public project', async () => {
    expectDenied(await infoRefs(projects.public.path, { service: 'git-upload-pack', auth: 'x:not-a-token' }));
    expectDenied(await infoRefs(projects.public.path, { service: 'git-upload-pack', auth: 'x:' }));
    const revoked = await s.createUser('revoked');
    await s.db('personal_access_tokens').where({ user_id: revoked.user.id }).update({ revoked: true });
    expectDenied(await infoRefs(projects.public.path, { service: 'git-upload-pack', auth: `x:${revoked.token}` }));
    const expired = await s.createUser('expired');
    await s.db('personal_access_tokens').where({ user_id: expired.user.id }).update({ expires_at: '2001-01-01' });
    expectDenied(await infoRefs(projects.public.path, { service: 'git-upload-pack', auth: `x:${expired.token}` }));
  });

  it('accepts the account password with the username or email', async () => {
    const pat = await s.createUser('patricia');
    await s
      .db('users')
      .where({ id: pat.user.id })
      .update({ password_digest: await hashPassword('s3cret-pass') });
    expect((await infoRefs(projects.internal.path, { service: 'git-upload-pack', auth: 'patricia:s3cret-pass' })).status).to.equal(200);
    expect((await infoRefs(projects.internal.path, { service: 'git-upload-pack', auth: 'patricia@example.com:s3cret-pass' })).status).to.equal(200);
    expectDenied(await infoRefs(projects.internal.path, { service: 'git-upload-pack', auth: 'patricia:wrong' }));
  });

  it("answers 403 with GitAccess's message to a signed-in user who may not", async () => {
    const auth = (who: string) => `someone:${accounts[who].token}`;
    expectText(await infoRefs(projects.private.path, { service: 'git-upload-pack', auth: auth('guest') }), 403, 'You are not allowed to download code from this project.');
    expectText(await infoRefs(projects.private.path, { service: 'git-receive-pack', auth: auth('reporter') }), 403, 'You are not allowed to push code to this project.');
    expectText(await infoRefs(projects.private.path, { service: 'git-receive-pack', auth: auth('reader') }), 403, 'You are not allowed to upload code.');
    expectText(await infoRefs(projects.public.path, { service: 'git-upload-pack', auth: auth('profile') }), 403, 'You are not allowed to download code.');
    const blocked = await s.createUser('blocky');
    await s.db('users').where({ id: blocked.user.id }).update({ state: 'blocked' });
    expectText(await infoRefs(projects.public.path, { service: 'git-upload-pack', auth: `b:${blocked.token}` }), 403, 'Your account has been blocked.');
  });

  it('answers 404 for a project the user cannot see, as for a missing one', async () => {
    const auth = `x:${accounts.stranger.token}`;
    const msg = 'The project you were looking for could not be found.';
    expectText(await infoRefs(projects.private.path, { service: 'git-upload-pack', auth }), 404, msg);
    expectText(await infoRefs('owen/no-such-project', { service: 'git-upload-pack', auth }), 404, msg);
    expectText(await infoRefs(projects.internal.path, { service: 'git-upload-pack', auth: `x:${accounts.external.token}` }), 404, msg);
  });

  it('refuses pushes to an archived project', async () => {
    await s.db('projects').where({ id: projects.internal.id }).update({ archived: true });
    try {
      const r = await infoRefs(projects.internal.path, { service: 'git-receive-pack', auth: `x:${accounts.master.token}` });
      expectText(r, 403, 'You are not allowed to push code to this project.');
      expect((await infoRefs(projects.internal.path, { service: 'git-upload-pack', auth: `x:${accounts.master.token}` })).status).to.equal(200);
    } finally {
      await s.db('projects').where({ id: projects.internal.id }).update({ archived: false });
    }
  });

  it('answers 404 when the repository is missing on disk', async () => {
    const r = await s.post('/projects', { json: { name: 'no-repo', visibility: 'public' }, token: owner.token });
    await s.deps.repos.remove(r.body.path_with_namespace);
    expectText(await infoRefs(r.body.path_with_namespace, { service: 'git-upload-pack', auth: `x:${owner.token}` }), 404, 'A repository for this project does not exist yet.');
  });

  it('refuses the dumb protocol and unknown services', async () => {
    expectDenied(await infoRefs(projects.public.path));
    const auth = `x:${owner.token}`;
    expectText(await infoRefs(projects.public.path, { auth }), 403, "The command you're trying to execute is not allowed.");
    expectText(await infoRefs(projects.public.path, { service: 'git-upload-archive', auth }), 403, "The command you're trying to execute is not allowed.");
    const head = await fetch(`${s.url}/${projects.public.path}.git/HEAD`);
    expect(head.status).to.equal(404);
    const objects = await fetch(`${s.url}/${projects.public.path}.git/objects/info/packs`);
    expect(objects.status).to.equal(404);
  });

  it('finds projects case-insensitively and redirects the handshake without .git', async () => {
    const upper = projects.public.path.toUpperCase();
    expect((await infoRefs(upper, { service: 'git-upload-pack' })).status).to.equal(200);
    const res = await fetch(`${s.url}/${projects.public.path}/info/refs?service=git-upload-pack`, { redirect: 'manual' });
    expect(res.status).to.equal(302);
    expect(res.headers.get('location')).to.equal(`${s.url}/${projects.public.path}.git/info/refs?service=git-upload-pack`);
    const other = await fetch(`${s.url}/${projects.public.path}/info/refs?service=evil`, { redirect: 'manual' });
    expect(other.status).to.equal(404);
  });

  it('serves nested group namespaces', async () => {
    const g = await s.post('/groups', { json: { name: 'outer', path: 'outer' }, token: owner.token });
    expect(g.status, g.text).to.equal(201);
    const sub = await s.post('/groups', { json: { name: 'inner', path: 'inner', parent_id: g.body.id }, token: owner.token });
    expect(sub.status, sub.text).to.equal(201);
    const r = await s.post('/projects', { json: { name: 'deep', namespace_id: sub.body.id }, token: owner.token });
    expect(r.body.path_with_namespace).to.equal('outer/inner/deep');
    const work = await workRepo();
    await gitOk(['push', '-q', repoUrl(s, 'outer/inner/deep', owner.token), 'master'], { cwd: work });
    const clone = path.join(tempDir(), 'deep');
    await gitOk(['clone', '-q', repoUrl(s, 'outer/inner/deep', owner.token), clone]);
    expect((await s.get(`/projects/${r.body.id}`)).body.default_branch).to.equal('master');
  });
});
