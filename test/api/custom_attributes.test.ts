// Custom attributes of users, groups and projects (customAttributeRoutes): the same four
// admin-only routes for each kind, the admin check before the subject's 404 (a non-admin learns
// nothing about the subject, not even whether it exists), then the parameters.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { created, createProject } from '../helpers/projects.js';
import type { UserRow } from '../../src/store/rows.js';

describe('Custom attributes API', () => {
  let s: TestServer;
  let alice: { user: UserRow; token: string };
  let bob: { user: UserRow; token: string };
  const subjects: Record<'users' | 'groups' | 'projects', { id: number; missing: string; notFound: string }> = {} as never;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    const group = created(await s.post('/groups', { token: alice.token, json: { name: 'Secret', path: 'secret' } }));
    const project = await createProject(s, alice.token, { name: 'hidden', visibility: 'private' });
    subjects.users = { id: alice.user.id, missing: '999999', notFound: '404 User Not Found' };
    subjects.groups = { id: group.id, missing: '999999', notFound: '404 Group Not Found' };
    subjects.projects = { id: project.id, missing: '999999', notFound: '404 Project Not Found' };
  });
  after(async () => s.close());

  for (const kind of ['users', 'groups', 'projects'] as const) {
    describe(`/${kind}/:id/custom_attributes`, () => {
      const base = (id: number | string = subjects[kind].id) => `/${kind}/${id}/custom_attributes`;

      it('sets, lists, shows and deletes attributes for admins', async () => {
        const put = await s.put(`${base()}/tier`, { json: { value: 'gold' } });
        expect(put.status).to.equal(200);
        expect(put.body).to.deep.equal({ key: 'tier', value: 'gold' });
        const replaced = await s.put(`${base()}/tier`, { form: { value: 'silver' } });
        expect(replaced.body).to.deep.equal({ key: 'tier', value: 'silver' });
        await s.put(`${base()}/area`, { json: { value: 'north' } });
        const list = await s.get(base());
        expect(list.status).to.equal(200);
        expect(list.body).to.deep.equal([
          { key: 'area', value: 'north' },
          { key: 'tier', value: 'silver' },
        ]);
        expect((await s.get(`${base()}/tier`)).body).to.deep.equal({ key: 'tier', value: 'silver' });
        const removed = await s.delete(`${base()}/tier`);
        expect(removed.status).to.equal(204);
        expect(removed.text).to.equal('');
        expect((await s.get(base())).body).to.deep.equal([{ key: 'area', value: 'north' }]);
      });

      it('answers 401 to the anonymous and 403 to non-admins, even for a subject that does not exist', async () => {
        for (const id of [subjects[kind].id, subjects[kind].missing]) {
          for (const [method, url] of [
            ['GET', base(id)],
            ['GET', `${base(id)}/area`],
            ['PUT', `${base(id)}/area`],
            ['DELETE', `${base(id)}/area`],
          ] as const) {
            const json = method === 'PUT' ? { value: 'x' } : undefined;
            const anonymous = await s.request(method, url, { token: null, json });
            expect(anonymous.status, `${method} ${url}`).to.equal(401);
            expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
            const user = await s.request(method, url, { token: bob.token, json });
            expect(user.status, `${method} ${url}`).to.equal(403);
            expect(user.body).to.deep.equal({ message: '403 Forbidden' });
          }
        }
      });

      it('answers 404 for an unknown subject before the parameters, then 400, then 404 Custom Attribute Not Found', async () => {
        const missing = await s.put(`${base(subjects[kind].missing)}/area`, { json: {} });
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ message: subjects[kind].notFound });
        const noValue = await s.put(`${base()}/area`, { json: {} });
        expect(noValue.status).to.equal(400);
        expect(noValue.body).to.deep.equal({ error: 'value is missing' });
        for (const method of ['GET', 'DELETE'] as const) {
          const r = await s.request(method, `${base()}/nothing`);
          expect(r.status, method).to.equal(404);
          expect(r.body).to.deep.equal({ message: '404 Custom Attribute Not Found' });
        }
      });
    });
  }

  it('has no route for a user named by anything but digits', async () => {
    const r = await s.get('/users/alice/custom_attributes');
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ error: '404 Not Found' });
  });
});
