// Protected branches (GitLab 10.8 lib/api/protected_branches.rb, the legacy branches/:branch/
// protect and /unprotect), the rules behind them, and their enforcement in the API write
// paths (files, multi-action commits, branch create/delete) and in checkRefUpdate, the
// verdict the git transport asks for each pushed ref.
import { expect } from 'chai';
import path from 'node:path';
import { createRoles, addProjectMembers, type Account } from '../helpers/roles.js';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { head, refState, expectUntouched } from '../helpers/bare_git.js';
import { DEVELOPER, GUEST, MASTER, REPORTER } from '../../src/policy/levels.js';
import { findProjectByIdOrPath } from '../../src/finders/projects.js';
import { projectAccess } from '../../src/policy/projects.js';
import { checkRefUpdate, ruleMatches, type RefUpdate } from '../../src/policy/branches.js';

const enc = encodeURIComponent;
const FORBIDDEN = { message: '403 Forbidden' };
const NOT_FOUND = { message: '404 Not found' };
const NOT_ALLOWED = { message: 'You are not allowed to push into this branch' };
const PUSH_PROTECTED = 'You are not allowed to push code to protected branches on this project.';
const DELETE_PROTECTED = 'You are not allowed to delete protected branches from this project. Only a project master or owner can delete a protected branch.';
const MASTERS = { access_level: 40, access_level_description: 'Masters' };
const DEVELOPERS = { access_level: 30, access_level_description: 'Developers + Masters' };
const NO_ONE = { access_level: 0, access_level_description: 'No one' };

describe('Protected branches', () => {
  let s: TestServer;
  let alice: Account; // owns every project (a master member of it)
  let master: Account;
  let dev: Account;
  let reporter: Account;
  let guest: Account;
  let stranger: Account;
  let admin: Account; // not a member of anything

  before(async () => {
    s = await bootServer();
    ({ owner: alice, master, dev, reporter, guest, stranger, admin } = await createRoles(s, 'alice'));
  });
  after(async () => s.close());

  let counter = 0;
  /** An empty project of alice's with a master, a developer, a reporter and a guest. */
  async function project(visibility = 'private') {
    const name = `pb${++counter}`;
    const r = await s.post('/projects', { token: alice.token, json: { name, visibility } });
    expect(r.status, r.text).to.equal(201);
    const id = r.body.id as number;
    await addProjectMembers(s, id, [
      [master, MASTER],
      [dev, DEVELOPER],
      [reporter, REPORTER],
      [guest, GUEST],
    ]);
    return {
      id,
      dir: path.join(s.dir, 'repos', 'alice', `${name}.git`),
      rules: `/projects/${id}/protected_branches`,
      files: `/projects/${id}/repository/files`,
      branches: `/projects/${id}/repository/branches`,
      commits: `/projects/${id}/repository/commits`,
    };
  }
  type Project = Awaited<ReturnType<typeof project>>;

  let fileNo = 0;
  const writeFile = (p: Project, branch: string, token: string, extra: Record<string, string> = {}) =>
    s.post(`${p.files}/f${++fileNo}.txt`, { token, json: { branch, content: `${fileNo}`, commit_message: `write ${fileNo}`, ...extra } });

  /** A project whose master has a first commit by alice (which protected master), plus `branches` from master. */
  async function seeded(branches: string[] = [], visibility = 'private') {
    const p = await project(visibility);
    expect((await writeFile(p, 'master', alice.token)).status).to.equal(201);
    for (const b of branches) {
      const r = await s.post(p.branches, { token: alice.token, json: { branch: b, ref: 'master' } });
      expect(r.status, r.text).to.equal(201);
    }
    return p;
  }

  const protect = async (p: Project, name: string, push?: number, merge?: number) => {
    const r = await s.post(p.rules, { token: alice.token, json: { name, push_access_level: push, merge_access_level: merge } });
    expect(r.status, r.text).to.equal(201);
    return r;
  };

  describe('POST', () => {
    it('protects a branch with master levels by default, answering 201 with the entity', async () => {
      const p = await seeded();
      const r = await s.post(p.rules, { token: master.token, json: { name: 'stable' } });
      expect(r.status).to.equal(201);
      expect(r.headers.get('content-type')).to.equal('application/json');
      expect(r.body).to.deep.equal({ name: 'stable', push_access_levels: [MASTERS], merge_access_levels: [MASTERS] });
      const form = await s.post(p.rules, { token: master.token, form: { name: 'formed', push_access_level: '30', merge_access_level: '0' } });
      expect(form.status).to.equal(201);
      expect(form.body).to.deep.equal({ name: 'formed', push_access_levels: [DEVELOPERS], merge_access_levels: [NO_ONE] });
    });

    it('accepts every combination of 0, 30 and 40, and takes null as the default', async () => {
      const p = await seeded();
      const levels = { 0: NO_ONE, 30: DEVELOPERS, 40: MASTERS } as const;
      for (const push of [0, 30, 40] as const) {
        for (const merge of [0, 30, 40] as const) {
          const r = await protect(p, `b-${push}-${merge}`, push, merge);
          expect(r.body).to.deep.equal({ name: `b-${push}-${merge}`, push_access_levels: [levels[push]], merge_access_levels: [levels[merge]] });
        }
      }
      const r = await s.post(p.rules, { token: alice.token, json: { name: 'nulls', push_access_level: null, merge_access_level: null } });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({ name: 'nulls', push_access_levels: [MASTERS], merge_access_levels: [MASTERS] });
    });

    it('protects wildcards, with or without slashes', async () => {
      const p = await seeded();
      for (const name of ['release-*', 'feature/*', '*-stable', '*']) {
        const r = await protect(p, name, 30);
        expect(r.body.name).to.equal(name);
      }
    });

    it('answers 409 for a name already protected (the default branch too), changing nothing', async () => {
      const p = await seeded();
      await protect(p, 'release-*', 30);
      for (const name of ['release-*', 'master']) {
        const r = await s.post(p.rules, { token: alice.token, json: { name, push_access_level: 0 } });
        expect(r.status, name).to.equal(409);
        expect(r.body, name).to.deep.equal({ message: `Protected branch '${name}' already exists` });
      }
      const one = await s.get(`${p.rules}/release-*`, { token: alice.token });
      expect(one.body.push_access_levels).to.deep.equal([DEVELOPERS]);
    });

    it('answers the parameter errors in Grape words, and 422 for a blank name', async () => {
      const p = await seeded();
      const cases: [Record<string, unknown>, number, unknown][] = [
        [{}, 400, { error: 'name is missing' }],
        [{ name: 'x', push_access_level: 20 }, 400, { error: 'push_access_level does not have a valid value' }],
        [{ name: 'x', merge_access_level: 50 }, 400, { error: 'merge_access_level does not have a valid value' }],
        [{ name: 'x', push_access_level: 10, merge_access_level: 'high' }, 400, { error: 'push_access_level does not have a valid value, merge_access_level is invalid' }],
        [{ push_access_level: 1 }, 400, { error: 'name is missing, push_access_level does not have a valid value' }],
        [{ name: '' }, 422, { message: ["Name can't be blank"] }],
        [{ name: '  ' }, 422, { message: ["Name can't be blank"] }],
      ];
      for (const [json, status, body] of cases) {
        const r = await s.post(p.rules, { token: alice.token, json });
        expect(r.status, JSON.stringify(json)).to.equal(status);
        expect(r.body, JSON.stringify(json)).to.deep.equal(body);
      }
      const list = await s.get(p.rules, { token: alice.token });
      expect(list.body.map((b: { name: string }) => b.name)).to.deep.equal(['master']);
    });
  });

  describe('GET', () => {
    it('lists the rules oldest first, paginated; the first commit protected the default branch', async () => {
      const p = await seeded();
      for (const name of ['a', 'feature/*', 'c']) await protect(p, name);
      let r = await s.get(p.rules, { token: master.token });
      expect(r.status).to.equal(200);
      expect(r.body.map((b: { name: string }) => b.name)).to.deep.equal(['master', 'a', 'feature/*', 'c']);
      expect(r.body[0]).to.deep.equal({ name: 'master', push_access_levels: [MASTERS], merge_access_levels: [MASTERS] });
      expect(r.headers.get('x-total')).to.equal('4');
      r = await s.get(p.rules, { token: master.token, query: { per_page: 3, page: 2 } });
      expect(r.body.map((b: { name: string }) => b.name)).to.deep.equal(['c']);
      expect(r.headers.get('x-total-pages')).to.equal('2');
      expect(r.headers.get('x-prev-page')).to.equal('1');
      expect(r.headers.get('link')).to.contain('rel="prev"');
      // By the project's URL-encoded path too.
      r = await s.get(`/projects/${enc(`alice/pb${counter}`)}/protected_branches`, { token: master.token });
      expect(r.body).to.have.length(4);
    });

    it('answers an empty list for a project without rules', async () => {
      const p = await project();
      const r = await s.get(p.rules, { token: alice.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([]);
      expect(r.headers.get('x-total')).to.equal('0');
    });

    it('gets one rule by its exact (URL-encoded) name, wildcards included', async () => {
      const p = await seeded();
      await protect(p, 'feature/*', 30, 0);
      await protect(p, 'v1.0', 0, 30);
      let r = await s.get(`${p.rules}/${enc('feature/*')}`, { token: master.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ name: 'feature/*', push_access_levels: [DEVELOPERS], merge_access_levels: [NO_ONE] });
      r = await s.get(`${p.rules}/v1.0`, { token: master.token });
      expect(r.body).to.deep.equal({ name: 'v1.0', push_access_levels: [NO_ONE], merge_access_levels: [DEVELOPERS] });
      // A branch the wildcard matches is not itself a rule.
      r = await s.get(`${p.rules}/${enc('feature/x')}`, { token: master.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.get(`${p.rules}/unknown`, { token: master.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
    });
  });

  describe('DELETE', () => {
    it('unprotects with 204 and no body; the branch is then unprotected', async () => {
      const p = await seeded(['feature/x']);
      await protect(p, 'feature/*');
      let r = await s.delete(`${p.rules}/${enc('feature/*')}`, { token: master.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      r = await s.get(`${p.rules}/${enc('feature/*')}`, { token: master.token });
      expect(r.status).to.equal(404);
      expect((await s.get(`${p.branches}/${enc('feature/x')}`, { token: master.token })).body.protected).to.equal(false);
      r = await s.delete(`${p.rules}/master`, { token: master.token });
      expect(r.status).to.equal(204);
      expect((await s.get(`${p.branches}/master`, { token: master.token })).body.protected).to.equal(false);
    });

    it('answers 404 for an unknown rule and 412 for a stale If-Unmodified-Since', async () => {
      const p = await seeded();
      let r = await s.delete(`${p.rules}/unknown`, { token: alice.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal(NOT_FOUND);
      r = await s.delete(`${p.rules}/master`, { token: alice.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(r.status).to.equal(412);
      expect(r.body).to.deep.equal({ message: '412 Precondition Failed' });
      expect((await s.get(`${p.rules}/master`, { token: alice.token })).status).to.equal(200);
    });
  });

  describe('permissions (master, checked before the parameters)', () => {
    const calls = (p: Project) =>
      [
        ['get', p.rules, {}],
        ['get', `${p.rules}/master`, {}],
        ['post', p.rules, { json: { push_access_level: 99 } }],
        ['delete', `${p.rules}/master`, {}],
        ['put', `${p.branches}/master/protect`, { json: { developers_can_push: true } }],
        ['put', `${p.branches}/master/unprotect`, {}],
      ] as const;

    it('refuses developers, reporters and guests with 403, changing nothing', async () => {
      const p = await seeded();
      for (const who of [dev, reporter, guest]) {
        for (const [method, url, opts] of calls(p)) {
          const r = await s[method](url, { token: who.token, ...opts });
          expect(r.status, `${who.user.username} ${method} ${url}`).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
      }
      const r = await s.get(p.rules, { token: alice.token });
      expect(r.body).to.deep.equal([{ name: 'master', push_access_levels: [MASTERS], merge_access_levels: [MASTERS] }]);
    });

    it('hides a private project from strangers and anonymous users (404)', async () => {
      const p = await seeded();
      for (const token of [stranger.token, null]) {
        for (const [method, url, opts] of calls(p)) {
          const r = await s[method](url, { token, ...opts });
          expect(r.status, `${token} ${method} ${url}`).to.equal(404);
          expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
        }
      }
    });

    it('answers anonymous users 401 and non-members 403 on a public project', async () => {
      const p = await seeded([], 'public');
      for (const [method, url, opts] of calls(p)) {
        let r = await s[method](url, { token: null, ...opts });
        expect(r.status, `anonymous ${method} ${url}`).to.equal(401);
        expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
        r = await s[method](url, { token: stranger.token, ...opts });
        expect(r.status, `stranger ${method} ${url}`).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
    });

    it('lets masters, the owner and admins manage rules', async () => {
      const p = await seeded();
      for (const who of [master, alice, admin]) {
        const name = `by-${who.user.username}`;
        let r = await s.post(p.rules, { token: who.token, json: { name } });
        expect(r.status, name).to.equal(201);
        r = await s.get(`${p.rules}/${name}`, { token: who.token });
        expect(r.status, name).to.equal(200);
        r = await s.delete(`${p.rules}/${name}`, { token: who.token });
        expect(r.status, name).to.equal(204);
      }
    });
  });

  describe('legacy branches/:branch/protect and /unprotect', () => {
    it('protects an existing branch with developers_can_* flags, answering the Branch entity', async () => {
      const p = await seeded(['stable', 'feature/x']);
      let r = await s.put(`${p.branches}/stable/protect`, { token: master.token });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/branch.json');
      expect(r.body).to.deep.include({ name: 'stable', protected: true, developers_can_push: false, developers_can_merge: false });
      expect(r.body.commit.id).to.equal(head(p.dir, 'stable'));
      expect((await s.get(`${p.rules}/stable`, { token: master.token })).body).to.deep.equal({ name: 'stable', push_access_levels: [MASTERS], merge_access_levels: [MASTERS] });

      r = await s.put(`${p.branches}/${enc('feature/x')}/protect`, { token: master.token, json: { developers_can_push: true } });
      expect(r.body).to.deep.include({ name: 'feature/x', protected: true, developers_can_push: true, developers_can_merge: false });
      // On an existing rule only the flags given change.
      r = await s.put(`${p.branches}/${enc('feature/x')}/protect`, { token: master.token, form: { developers_can_merge: 'true' } });
      expect(r.body).to.deep.include({ developers_can_push: true, developers_can_merge: true });
      r = await s.put(`${p.branches}/${enc('feature/x')}/protect`, { token: master.token, json: { developers_can_push: false } });
      expect(r.body).to.deep.include({ developers_can_push: false, developers_can_merge: true });
      expect((await s.get(`${p.rules}/${enc('feature/x')}`, { token: master.token })).body).to.deep.equal({
        name: 'feature/x',
        push_access_levels: [MASTERS],
        merge_access_levels: [DEVELOPERS],
      });
    });

    it('unprotects by exact name only: a wildcard rule still covers the branch', async () => {
      const p = await seeded(['stable', 'release-1']);
      await s.put(`${p.branches}/stable/protect`, { token: master.token });
      let r = await s.put(`${p.branches}/stable/unprotect`, { token: master.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.include({ name: 'stable', protected: false });
      expect((await s.get(`${p.rules}/stable`, { token: master.token })).status).to.equal(404);
      r = await s.put(`${p.branches}/stable/unprotect`, { token: master.token });
      expect(r.status).to.equal(200);
      expect(r.body.protected).to.equal(false);
      await protect(p, 'release-*', 30);
      r = await s.put(`${p.branches}/release-1/unprotect`, { token: master.token });
      expect(r.body).to.deep.include({ name: 'release-1', protected: true, developers_can_push: true });
    });

    it('answers 404 for an unknown branch, 400 for an invalid name or flag', async () => {
      const p = await seeded();
      for (const action of ['protect', 'unprotect']) {
        let r = await s.put(`${p.branches}/unknown/${action}`, { token: master.token });
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 Branch Not Found' });
        r = await s.put(`${p.branches}/branch*/${action}`, { token: master.token });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ message: 'The branch refname is invalid' });
      }
      const r = await s.put(`${p.branches}/master/protect`, { token: master.token, json: { developers_can_push: 'maybe' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'developers_can_push is invalid' });
      expect((await s.get(`${p.rules}/unknown`, { token: master.token })).status).to.equal(404);
    });
  });

  describe('rules: who may push where (files API)', () => {
    // Branches e<L> are protected by exact rules, w<L>/x by wildcard rules `w<L>/*`, L the push level.
    async function matrixProject() {
      const names = [0, 30, 40].flatMap((l) => [`e${l}`, `w${l}/x`]);
      const p = await seeded(names);
      for (const l of [0, 30, 40]) {
        await protect(p, `e${l}`, l);
        await protect(p, `w${l}/*`, l);
      }
      return { p, names };
    }
    const levelOf = (branch: string) => Number(/\d+/.exec(branch)![0]);

    it('guests and reporters cannot push at all (403), whatever the rule', async () => {
      const { p, names } = await matrixProject();
      const before = refState(p.dir);
      for (const who of [guest, reporter]) {
        for (const b of names) {
          const r = await writeFile(p, b, who.token);
          expect(r.status, `${who.user.username} ${b}`).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
      }
      expectUntouched(p.dir, before);
    });

    it('developers push only where the rule says 30; masters, the owner and admins where it says 30 or 40; nobody where it says 0', async () => {
      const { p, names } = await matrixProject();
      const allowed: [Account, number[]][] = [
        [dev, [30]],
        [master, [30, 40]],
        [alice, [30, 40]],
        [admin, [30, 40]],
      ];
      for (const [who, levels] of allowed) {
        for (const b of names) {
          const tip = head(p.dir, b);
          const r = await writeFile(p, b, who.token);
          const label = `${who.user.username} → ${b}`;
          if (levels.includes(levelOf(b))) {
            expect(r.status, label).to.equal(201);
            expect(head(p.dir, b), label).to.not.equal(tip);
          } else {
            expect(r.status, label).to.equal(400);
            expect(r.body, label).to.deep.equal(NOT_ALLOWED);
            expect(head(p.dir, b), label).to.equal(tip);
          }
        }
      }
    });

    it('grants access when ANY matching rule does', async () => {
      const p = await seeded(['multi/x', 'lock/x']);
      await protect(p, 'multi/*', 0);
      await protect(p, 'multi/x', 30); // exact 30 beats wildcard 0
      await protect(p, 'lock/*', 40);
      await protect(p, '*/x', 0); // 0 everywhere under */x, but lock/* still lets masters in
      expect((await writeFile(p, 'multi/x', dev.token)).status).to.equal(201);
      let r = await writeFile(p, 'lock/x', dev.token);
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(NOT_ALLOWED);
      expect((await writeFile(p, 'lock/x', master.token)).status).to.equal(201);
      // A new branch matched by a rule is protected from its first commit.
      r = await writeFile(p, 'lock/new', dev.token, { start_branch: 'master' });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(NOT_ALLOWED);
      expect((await writeFile(p, 'free', dev.token, { start_branch: 'master' })).status).to.equal(201);
    });

    it('matches `*` across slashes and anchored at both ends, other characters literally (Branch entity)', async () => {
      const p = await seeded(['release-1.0', 'release-', 'xrelease-1', 'release', 'feature/a/b', 'features', 'v1x0', 'v1.0', 'a+b-1', 'aab-1']);
      await protect(p, 'release-*', 30, 40);
      await protect(p, 'feature/*', 40, 30);
      await protect(p, 'v1.*');
      await protect(p, 'a+b*');
      const r = await s.get(p.branches, { token: reporter.token, query: { per_page: 100 } });
      const flags = Object.fromEntries(r.body.map((b: any) => [b.name, [b.protected, b.developers_can_push, b.developers_can_merge]]));
      expect(flags).to.deep.equal({
        'a+b-1': [true, false, false],
        'aab-1': [false, false, false],
        features: [false, false, false],
        'feature/a/b': [true, false, true],
        master: [true, false, false],
        release: [false, false, false],
        'release-': [true, true, false],
        'release-1.0': [true, true, false],
        'v1.0': [true, false, false],
        v1x0: [false, false, false],
        'xrelease-1': [false, false, false],
      });
    });

    it('ruleMatches: exact names, lazy anchored wildcards, literal specials', () => {
      const cases: [string, string, boolean][] = [
        ['master', 'master', true],
        ['master', 'master2', false],
        ['release-*', 'release-1.0', true],
        ['release-*', 'release-', true],
        ['release-*', 'xrelease-1', false],
        ['feature/*', 'feature/a/b', true],
        ['*-stable', '10-8-stable', true],
        ['*-stable', '10-8-stable-x', false],
        ['*', 'anything/at/all', true],
        ['v1.*', 'v1x0', false],
        ['a+b*', 'aab', false],
        ['(x)*', '(x)y', true],
        ['', '', false],
      ];
      for (const [rule, branch, expected] of cases) expect(ruleMatches(rule, branch), `${rule} ~ ${branch}`).to.equal(expected);
    });
  });

  describe('default branch protection (2: fully protected)', () => {
    it('protects every branch of an empty repository: developers cannot make the first commit', async () => {
      const p = await project();
      const before = refState(p.dir);
      let r = await writeFile(p, 'master', dev.token);
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(NOT_ALLOWED);
      r = await writeFile(p, 'anything', dev.token);
      expect(r.body).to.deep.equal(NOT_ALLOWED);
      r = await s.post(p.commits, { token: dev.token, json: { branch: 'master', commit_message: 'm', actions: [{ action: 'create', file_path: 'a', content: 'a' }] } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal(NOT_ALLOWED);
      r = await s.post(p.branches, { token: dev.token, json: { branch: 'dev', ref: 'master' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: PUSH_PROTECTED });
      expectUntouched(p.dir, before);
      expect((await s.get(p.rules, { token: alice.token })).body).to.deep.equal([]);
    });

    it('lets a master make the first commit, which protects the default branch with master levels', async () => {
      const p = await project();
      const r = await writeFile(p, 'develop', master.token);
      expect(r.status).to.equal(201);
      expect((await s.get(p.rules, { token: alice.token })).body).to.deep.equal([{ name: 'develop', push_access_levels: [MASTERS], merge_access_levels: [MASTERS] }]);
      const b = await s.get(`${p.branches}/develop`, { token: dev.token });
      expect(b.body).to.deep.include({ protected: true, developers_can_push: false, developers_can_merge: false });
      // Developers now push to other branches, not to the default one.
      expect((await writeFile(p, 'topic', dev.token, { start_branch: 'develop' })).status).to.equal(201);
      const refused = await writeFile(p, 'develop', dev.token);
      expect(refused.status).to.equal(400);
      expect(refused.body).to.deep.equal(NOT_ALLOWED);
      // Only the first branch is protected.
      expect((await s.get(p.rules, { token: alice.token })).body).to.have.length(1);
    });

    it('lets an admin make the first commit, by multi-action commit or branch creation', async () => {
      let p = await project();
      let r = await s.post(p.commits, { token: ROOT_TOKEN, json: { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'a', content: 'a' }] } });
      expect(r.status).to.equal(201);
      expect((await s.get(p.rules, { token: alice.token })).body.map((x: { name: string }) => x.name)).to.deep.equal(['main']);
      p = await project();
      r = await s.post(p.branches, { token: admin.token, json: { branch: 'dev', ref: 'master' } });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.include({ name: 'dev', protected: false });
      expect((await s.get(p.rules, { token: alice.token })).body.map((x: { name: string }) => x.name)).to.deep.equal(['master']);
    });

    it('lets a rule open the empty repository to developers, and adds none when one covers the default branch', async () => {
      const p = await project();
      await protect(p, '*', 30);
      const r = await writeFile(p, 'master', dev.token);
      expect(r.status).to.equal(201);
      expect((await s.get(p.rules, { token: alice.token })).body.map((x: { name: string }) => x.name)).to.deep.equal(['*']);
    });
  });

  describe('enforcement in branch creation and deletion', () => {
    it('refuses developers a new branch matched by a master rule, with the push hook message', async () => {
      const p = await seeded();
      await protect(p, 'release-*');
      const before = refState(p.dir);
      let r = await s.post(p.branches, { token: dev.token, json: { branch: 'release-1', ref: 'master' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: PUSH_PROTECTED });
      expectUntouched(p.dir, before);
      r = await s.post(p.branches, { token: dev.token, json: { branch: 'topic', ref: 'master' } });
      expect(r.status).to.equal(201);
      r = await s.post(p.branches, { token: master.token, json: { branch: 'release-1', ref: 'master' } });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.include({ protected: true });
    });

    it('lets only masters delete a protected branch (even one nobody may push to)', async () => {
      const p = await seeded(['stable', 'locked', 'topic']);
      await protect(p, 'stable', 30);
      await protect(p, 'locked', 0);
      const before = refState(p.dir);
      for (const b of ['stable', 'locked']) {
        const r = await s.delete(`${p.branches}/${b}`, { token: dev.token });
        expect(r.status, b).to.equal(400);
        expect(r.body, b).to.deep.equal({ message: DELETE_PROTECTED });
      }
      expectUntouched(p.dir, before);
      expect((await s.delete(`${p.branches}/topic`, { token: dev.token })).status).to.equal(204);
      expect((await s.delete(`${p.branches}/stable`, { token: master.token })).status).to.equal(204);
      expect((await s.delete(`${p.branches}/locked`, { token: admin.token })).status).to.equal(204);
      // The rules stay: they name branches, not refs.
      expect((await s.get(p.rules, { token: alice.token })).body.map((x: { name: string }) => x.name)).to.deep.equal(['master', 'stable', 'locked']);
    });

    it('keeps protected branches when deleting merged ones', async () => {
      const p = await seeded(['merged-a', 'merged-b']);
      await writeFile(p, 'master', alice.token); // both are now behind master: merged
      await protect(p, 'merged-b');
      const r = await s.delete(`/projects/${p.id}/repository/merged_branches`, { token: dev.token });
      expect(r.status).to.equal(202);
      const names = (await s.get(p.branches, { token: dev.token })).body.map((b: { name: string }) => b.name);
      expect(names).to.deep.equal(['master', 'merged-b']);
    });
  });

  describe('checkRefUpdate (the verdict on a pushed ref)', () => {
    const ZERO = '0'.repeat(40);
    const A = 'a'.repeat(40);
    const B = 'b'.repeat(40);

    async function verdict(p: Project, who: Account, update: Partial<RefUpdate> & { ref: string }) {
      const project = (await findProjectByIdOrPath(s.db, String(p.id)))!;
      const access = await projectAccess(s.db, who.user, project);
      return checkRefUpdate(s.db, who.user, project, access, { oldOid: A, newOid: B, isForce: false, emptyRepo: false, ...update });
    }
    const deny = (message: string) => ({ allowed: false, message });
    const OK = { allowed: true };

    it('answers every role × rule level × exact/wildcard as the files API does, with the push messages', async () => {
      const p = await seeded();
      for (const l of [0, 30, 40]) {
        await protect(p, `e${l}`, l);
        await protect(p, `w${l}/*`, l);
      }
      const expected: [Account, number[]][] = [
        [dev, [30]],
        [master, [30, 40]],
        [admin, [30, 40]],
      ];
      for (const l of [0, 30, 40]) {
        for (const branch of [`e${l}`, `w${l}/deep/x`]) {
          for (const who of [guest, reporter]) {
            expect(await verdict(p, who, { ref: `refs/heads/${branch}` }), `${who.user.username} ${branch}`).to.deep.equal(
              deny('You are not allowed to push code to this project.'),
            );
          }
          for (const [who, levels] of expected) {
            expect(await verdict(p, who, { ref: `refs/heads/${branch}` }), `${who.user.username} ${branch}`).to.deep.equal(levels.includes(l) ? OK : deny(PUSH_PROTECTED));
          }
        }
      }
      expect(await verdict(p, dev, { ref: 'refs/heads/free' })).to.deep.equal(OK);
    });

    it('refuses force pushes to protected branches to everyone, allows them elsewhere', async () => {
      const p = await seeded();
      await protect(p, 'open', 30);
      for (const who of [dev, master, admin]) {
        for (const branch of ['open', 'master']) {
          expect(await verdict(p, who, { ref: `refs/heads/${branch}`, isForce: true })).to.deep.equal(
            deny('You are not allowed to force push code to a protected branch on this project.'),
          );
        }
        expect(await verdict(p, who, { ref: 'refs/heads/free', isForce: true })).to.deep.equal(OK);
      }
    });

    it('refuses deleting a protected branch over git to everyone, the default branch first', async () => {
      const p = await seeded();
      await protect(p, 'stable', 30);
      for (const oid of [ZERO, null]) {
        expect(await verdict(p, master, { ref: 'refs/heads/master', newOid: oid })).to.deep.equal(deny('The default branch of a project cannot be deleted.'));
        expect(await verdict(p, dev, { ref: 'refs/heads/stable', newOid: oid })).to.deep.equal(deny(DELETE_PROTECTED));
        for (const who of [master, admin]) {
          expect(await verdict(p, who, { ref: 'refs/heads/stable', newOid: oid })).to.deep.equal(deny('You can only delete protected branches using the web interface.'));
          expect(await verdict(p, who, { ref: 'refs/heads/stable', newOid: oid, web: true })).to.deep.equal(OK);
        }
        expect(await verdict(p, dev, { ref: 'refs/heads/free', newOid: oid })).to.deep.equal(OK);
      }
    });

    it('protects every branch of an empty repository: masters and admins only', async () => {
      const p = await project();
      const first = { oldOid: ZERO, emptyRepo: true, isForce: true }; // force is meaningless on an empty repository
      expect(await verdict(p, dev, { ref: 'refs/heads/any', ...first })).to.deep.equal(deny(PUSH_PROTECTED));
      for (const who of [master, alice, admin]) expect(await verdict(p, who, { ref: 'refs/heads/any', ...first })).to.deep.equal(OK);
    });

    it('lets only masters change existing tags', async () => {
      const p = await seeded();
      expect(await verdict(p, dev, { ref: 'refs/tags/v1', oldOid: ZERO })).to.deep.equal(OK);
      expect(await verdict(p, dev, { ref: 'refs/tags/v1' })).to.deep.equal(deny('You are not allowed to change existing tags on this project.'));
      expect(await verdict(p, master, { ref: 'refs/tags/v1', newOid: null })).to.deep.equal(OK);
    });
  });
});
