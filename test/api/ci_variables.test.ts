// CI variables of projects and groups (GitLab 10.8 lib/api/variables.rb, group_variables.rb):
// the five operations on each owner with status and body, the model's key rules (strip,
// blank, length, format, uniqueness: every failing rule in its order), `protected` cast as
// Rails casts text, who may use them (admin_build: masters; jobs disabled or archived refuse
// it), and that what the API stores is what the runner's finder hands to a job.
import { expect } from 'chai';
import { created } from '../helpers/projects.js';
import { addRoleMembers, useServerWithRoles } from '../helpers/roles.js';
import { DEVELOPER, MASTER } from '../../src/policy/levels.js';
import { variablesForJob } from '../../src/finders/ci_variables.js';
import { revealValue } from '../../src/services/ci/variable_values.js';

const FORBIDDEN = { message: '403 Forbidden' };
const UNAUTHORIZED = { message: '401 Unauthorized' };

describe('CI variables API', function () {
  this.timeout(60_000);
  const { s, owner, master, dev, stranger, admin } = useServerWithRoles();
  let group: { id: number };
  let project: any;

  before(async () => {
    group = created(await s.post('/groups', { token: owner.token, json: { name: 'Ops', path: 'ops', visibility: 'private' } }));
    for (const [who, level] of [
      [master, MASTER],
      [dev, DEVELOPER],
    ] as const) {
      expect((await s.post(`/groups/${group.id}/members`, { token: owner.token, json: { user_id: who.user.id, access_level: level } })).status).to.equal(201);
    }
    project = created(await s.post('/projects', { token: owner.token, json: { name: 'deployer', namespace_id: group.id, visibility: 'private' } }));
  });

  const owners = [
    { kind: 'project', model: 'Variable', base: () => `/projects/${project.id}/variables`, table: 'ci_variables' },
    { kind: 'group', model: 'GroupVariable', base: () => `/groups/${group.id}/variables`, table: 'ci_group_variables' },
  ] as const;

  for (const o of owners) {
    describe(`${o.kind} variables`, () => {
      const url = (key = '') => (key ? `${o.base()}/${key}` : o.base());
      const count = async () => Number((await s.db(o.table).count({ n: '*' }).first())?.n);
      const missing = { message: `404 ${o.model} Not Found` };

      it('creates (201), lists in order with pagination, gets one, updates and deletes (204)', async () => {
        const a = await s.post(url(), { token: master.token, json: { key: `${o.kind.toUpperCase()}_TOKEN`, value: 'tok-1' } });
        expect(a.status, a.text).to.equal(201);
        expect(a.body).to.deep.equal({ key: `${o.kind.toUpperCase()}_TOKEN`, value: 'tok-1', protected: false });
        // Form-encoded, as Grape reads it; `protected` is text cast by Rails; the key is stripped.
        const b = await s.post(url(), { token: master.token, form: { key: '  DEPLOY_KEY ', value: 'multi\nline value ', protected: 'true' } });
        expect(b.status, b.text).to.equal(201);
        expect(b.body).to.deep.equal({ key: 'DEPLOY_KEY', value: 'multi\nline value ', protected: true });
        const c = await s.post(url(), { token: master.token, json: { key: 'EMPTY', value: '', protected: false } });
        expect(c.status, c.text).to.equal(201);
        expect(c.body).to.deep.equal({ key: 'EMPTY', value: '', protected: false });

        const list = await s.get(url(), { token: master.token, query: { per_page: 2 } });
        expect(list.status).to.equal(200);
        expect(list.body).to.deep.equal([a.body, b.body]);
        expect(list.headers.get('x-total')).to.equal('3');
        expect((await s.get(url(), { token: master.token, query: { page: 2, per_page: 2 } })).body).to.deep.equal([c.body]);

        const one = await s.get(url('DEPLOY_KEY'), { token: master.token });
        expect(one.status).to.equal(200);
        expect(one.body).to.deep.equal(b.body);

        // The key never changes through an update; either field alone may be sent.
        const up = await s.put(url('DEPLOY_KEY'), { token: master.token, json: { key: 'RENAMED', value: 'v2', protected: 'false' } });
        expect(up.status, up.text).to.equal(200);
        expect(up.body).to.deep.equal({ key: 'DEPLOY_KEY', value: 'v2', protected: false });
        const onlyFlag = await s.put(url('DEPLOY_KEY'), { token: master.token, form: { protected: '1' } });
        expect(onlyFlag.body).to.deep.equal({ key: 'DEPLOY_KEY', value: 'v2', protected: true });
        expect((await s.get(url('RENAMED'), { token: master.token })).status).to.equal(404);

        const del = await s.delete(url('EMPTY'), { token: master.token });
        expect(del.status).to.equal(204);
        expect(del.text).to.equal('');
        expect((await s.get(url(), { token: master.token })).body.map((v: any) => v.key)).to.deep.equal([a.body.key, 'DEPLOY_KEY']);
      });

      it('answers 400 with the model rules of the key, and stores nothing', async () => {
        const before = await count();
        const cases: [unknown, string[]][] = [
          ['DEPLOY_KEY', ['(DEPLOY_KEY) has already been taken']],
          [' DEPLOY_KEY ', ['(DEPLOY_KEY) has already been taken']],
          ['my-key', ["can contain only letters, digits and '_'."]],
          ['ÜBER', ["can contain only letters, digits and '_'."]],
          ['A'.repeat(256), ['is too long (maximum is 255 characters)']],
          ['a-'.repeat(128), ['is too long (maximum is 255 characters)', "can contain only letters, digits and '_'."]],
          ['   ', ["can't be blank", "can contain only letters, digits and '_'."]],
        ];
        for (const [key, errors] of cases) {
          const r = await s.post(url(), { token: master.token, json: { key, value: 'x' } });
          expect(r.status, String(key)).to.equal(400);
          expect(r.body, String(key)).to.deep.equal({ message: { key: errors } });
        }
        // Keys are case-sensitive, as GitLab's unique index: another case is another variable.
        const lower = await s.post(url(), { token: master.token, json: { key: 'deploy_key', value: 'x' } });
        expect(lower.status).to.equal(201);
        await s.delete(url('deploy_key'), { token: master.token });
        expect((await s.post(url(), { token: master.token, json: { key: 'A'.repeat(255), value: 'x' } })).status).to.equal(201);
        await s.delete(url('A'.repeat(255)), { token: master.token });

        const none = await s.post(url(), { token: master.token, json: {} });
        expect(none.status).to.equal(400);
        expect(none.body).to.deep.equal({ error: 'key is missing, value is missing' });
        const nul = await s.post(url(), { token: master.token, json: { key: 'NUL', value: 'a\u0000b' } });
        expect(nul.status).to.equal(400);
        expect(nul.body).to.deep.equal({ error: 'value is invalid' });
        expect(await count()).to.equal(before);
      });

      it(`answers 404 ${o.model} Not Found for a key it does not have`, async () => {
        for (const [method, body] of [
          ['GET', undefined],
          ['PUT', { value: 'x' }],
          ['DELETE', undefined],
        ] as const) {
          const r = await s.request(method, url('NOPE'), { token: master.token, json: body });
          expect(r.status, method).to.equal(404);
          expect(r.body, method).to.deep.equal(missing);
        }
      });

      it('needs a signed-in master (or an admin); developers get 403, anonymous 401', async () => {
        const anon = await s.get(url(), { token: null });
        expect(anon.status).to.equal(401);
        expect(anon.body).to.deep.equal(UNAUTHORIZED);
        for (const [method, path, body] of [
          ['GET', url(), undefined],
          ['GET', url('DEPLOY_KEY'), undefined],
          ['POST', url(), { key: 'DEV', value: 'x' }],
          ['PUT', url('DEPLOY_KEY'), { value: 'dev' }],
          ['DELETE', url('DEPLOY_KEY'), undefined],
        ] as const) {
          const r = await s.request(method, path, { token: dev.token, json: body });
          expect(r.status, `${method} ${path}`).to.equal(403);
          expect(r.body).to.deep.equal(FORBIDDEN);
        }
        const hidden = await s.get(url(), { token: stranger.token });
        expect(hidden.status).to.equal(404);
        expect(hidden.body).to.deep.equal({ message: `404 ${o.kind === 'project' ? 'Project' : 'Group'} Not Found` });
        expect((await s.get(url('DEPLOY_KEY'), { token: admin.token })).body).to.include({ key: 'DEPLOY_KEY', value: 'v2' });
        expect((await s.get(url('DEPLOY_KEY'), { token: owner.token })).status).to.equal(200);
      });
    });
  }

  describe('what a job is given', () => {
    const job = async (protectedRef: boolean) => variablesForJob(s.db, { id: project.id, namespace_id: group.id }, protectedRef);
    const keys = (vars: { key: string; value: string }[]) => Object.fromEntries(vars.map((v) => [v.key, revealValue(s.deps.config, v.value)]));
    it('hands the variables written here to a job: groups first, the project overriding, protected ones only on protected refs', async () => {
      await s.post(`/groups/${group.id}/variables`, { token: master.token, json: { key: 'SHARED', value: 'from-group' } });
      await s.post(`/projects/${project.id}/variables`, { token: master.token, json: { key: 'SHARED', value: 'from-project' } });
      expect(keys(await job(true))).to.deep.equal({ GROUP_TOKEN: 'tok-1', DEPLOY_KEY: 'v2', SHARED: 'from-project', PROJECT_TOKEN: 'tok-1' });
      expect(keys(await job(false))).to.deep.equal({ GROUP_TOKEN: 'tok-1', SHARED: 'from-project', PROJECT_TOKEN: 'tok-1' });
    });

    it('keeps values sealed in the database (GitLab encrypts them), opened only for the API and the job', async () => {
      await s.post(`/projects/${project.id}/variables`, { token: master.token, json: { key: 'AT_REST', value: 'plain-text-secret' } });
      await s.put(`/projects/${project.id}/variables/AT_REST`, { token: master.token, json: { value: 'changed-secret' } });
      const stored = await s.db('ci_variables').where({ project_id: project.id, key: 'AT_REST' }).first();
      expect(stored.value).to.match(/^v1:/);
      expect(stored.value).not.to.include('secret');
      const groupStored = await s.db('ci_group_variables').where({ group_id: group.id, key: 'SHARED' }).first();
      expect(groupStored.value).to.match(/^v1:/);
      expect((await s.get(`/projects/${project.id}/variables/AT_REST`, { token: master.token })).body.value).to.equal('changed-secret');
      expect(keys(await job(false)).AT_REST).to.equal('changed-secret');
    });
  });

  describe('a project whose jobs are off, or that is archived', () => {
    let other: any;
    before(async () => {
      other = created(await s.post('/projects', { token: owner.token, json: { name: 'quiet', visibility: 'public' } }));
      await addRoleMembers(s, other.id, { master });
      expect((await s.post(`/projects/${other.id}/variables`, { token: master.token, json: { key: 'K', value: 'v' } })).status).to.equal(201);
    });

    it('refuses everyone, admins too, while jobs are disabled (403)', async () => {
      expect((await s.put(`/projects/${other.id}`, { token: owner.token, json: { jobs_enabled: false } })).status).to.equal(200);
      for (const who of [master, admin]) {
        const r = await s.get(`/projects/${other.id}/variables`, { token: who.token });
        expect(r.status).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      expect((await s.put(`/projects/${other.id}`, { token: owner.token, json: { jobs_enabled: true } })).status).to.equal(200);
      expect((await s.get(`/projects/${other.id}/variables`, { token: master.token })).status).to.equal(200);
    });

    it('refuses them on an archived project (403), admins too', async () => {
      expect((await s.post(`/projects/${other.id}/archive`, { token: owner.token })).status).to.equal(201);
      for (const who of [master, admin]) {
        const r = await s.post(`/projects/${other.id}/variables`, { token: who.token, json: { key: 'LATE', value: 'x' } });
        expect(r.status).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      // A public project's non-member reader gets no more than a 403 either.
      const r = await s.get(`/projects/${other.id}/variables`, { token: stranger.token });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
    });
  });
});
