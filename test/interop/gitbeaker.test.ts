// Drives the real server with @gitbeaker/rest 43 (the JavaScript GitLab client), used as documented.
// gitbeaker sends JSON bodies (also on DELETE), follows `Link: <…>; rel="next"` for all() and
// reads X-Total / X-Page / … only for showExpanded.
import { expect } from 'chai';
import { Gitlab, AccessLevel, GitbeakerRequestError } from '@gitbeaker/rest';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';

type Client = InstanceType<typeof Gitlab<false>>;

/** Turns a gitbeaker error into a message naming the request and what came back. */
async function explain<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof GitbeakerRequestError) {
      const cause = e.cause as { request?: Request; response?: Response; description?: string } | undefined;
      const req = cause?.request ? `${cause.request.method} ${cause.request.url}` : '?';
      const status = cause?.response ? cause.response.status : '?';
      throw new Error(`${what}: ${req} -> HTTP ${status}: ${cause?.description ?? e.message}`);
    }
    throw e;
  }
}

describe('interop: @gitbeaker/rest 43', function () {
  this.timeout(60_000);
  let s: TestServer;
  let api: Client;
  let userId: number;
  let groupId: number;
  let projectId: number;
  const bulkIds: number[] = [];
  const BULK = 45;

  before(async () => {
    s = await bootServer();
    api = new Gitlab({ host: s.url, token: ROOT_TOKEN });
  });
  after(async () => s?.close());

  it('creates a user and finds it with Users.all', async () => {
    const user = await explain('Users.create', () =>
      api.Users.create({ username: 'carol', email: 'carol@example.com', name: 'Carol', password: 'correct-horse-battery', skipConfirmation: true }),
    );
    expect(user.username).to.equal('carol');
    expect(user.id).to.be.a('number');
    userId = user.id;

    const found = await explain('Users.all({ username })', () => api.Users.all({ username: 'carol' }));
    expect(found.map((u) => u.id)).to.deep.equal([userId]);
    const everyone = await explain('Users.all()', () => api.Users.all());
    expect(everyone.map((u) => u.username)).to.include.members(['root', 'carol']);
    const shown = await explain('Users.show', () => api.Users.show(userId));
    expect(shown.username).to.equal('carol');
  });

  it('creates a group and lists it with Groups.all', async () => {
    const group = await explain('Groups.create', () => api.Groups.create('Beaker Group', 'beaker-group'));
    expect(group.path).to.equal('beaker-group');
    expect(group.full_path).to.equal('beaker-group');
    groupId = group.id;
    const groups = await explain('Groups.all()', () => api.Groups.all());
    expect(groups.map((g) => g.id)).to.include(groupId);
    const shown = await explain('Groups.show("beaker-group")', () => api.Groups.show('beaker-group'));
    expect(shown.id).to.equal(groupId);
  });

  it('creates a project in the group and shows it by id and by path', async () => {
    const project = await explain('Projects.create', () => api.Projects.create({ name: 'Beaker Project', namespaceId: groupId }));
    expect(project.path).to.equal('beaker-project');
    expect(project.path_with_namespace).to.equal('beaker-group/beaker-project');
    expect(project.namespace.id).to.equal(groupId);
    projectId = project.id;

    const byId = await explain('Projects.show(id)', () => api.Projects.show(projectId));
    expect(byId.path_with_namespace).to.equal('beaker-group/beaker-project');
    // gitbeaker encodes the path as beaker-group%2Fbeaker-project.
    const byPath = await explain('Projects.show(path)', () => api.Projects.show('beaker-group/beaker-project'));
    expect(byPath.id).to.equal(projectId);
  });

  it('adds members with ProjectMembers.add / GroupMembers.add and lists them', async () => {
    const pm = await explain('ProjectMembers.add', () => api.ProjectMembers.add(projectId, AccessLevel.DEVELOPER, { userId }));
    expect(pm.username).to.equal('carol');
    expect(pm.access_level).to.equal(30);
    const projectMembers = await explain('ProjectMembers.all', () => api.ProjectMembers.all(projectId));
    expect(projectMembers.map((m) => [m.username, m.access_level])).to.deep.equal([['carol', 30]]);

    const gm = await explain('GroupMembers.add', () => api.GroupMembers.add(groupId, AccessLevel.REPORTER, { userId }));
    expect(gm.access_level).to.equal(20);
    const groupMembers = await explain('GroupMembers.all', () => api.GroupMembers.all(groupId));
    const byName = Object.fromEntries(groupMembers.map((m) => [m.username, m.access_level]));
    expect(byName).to.deep.equal({ root: 50, carol: 20 });

    const shown = await explain('ProjectMembers.show', () => api.ProjectMembers.show(projectId, userId));
    expect(shown.access_level).to.equal(30);
    await explain('ProjectMembers.remove', () => api.ProjectMembers.remove(projectId, userId));
    expect(await explain('ProjectMembers.all after remove', () => api.ProjectMembers.all(projectId))).to.deep.equal([]);
  });

  it(`paginates Projects.all over ${BULK} more projects by following Link rel="next"`, async () => {
    for (let i = 0; i < BULK; i++) {
      const p = await explain(`Projects.create bulk-${i}`, () => api.Projects.create({ name: `bulk-${String(i).padStart(2, '0')}` }));
      bulkIds.push(p.id);
    }
    const total = BULK + 1;

    const limited = await explain('Projects.all({ perPage: 5, maxPages: 2 })', () => api.Projects.all({ perPage: 5, maxPages: 2 }));
    expect(limited).to.have.length(10);

    const all = await explain('Projects.all()', () => api.Projects.all());
    const ids = all.map((p) => p.id);
    expect(new Set(ids).size, 'no duplicates').to.equal(ids.length);
    expect(ids).to.have.length(total);
    expect(ids).to.include.members([...bulkIds, projectId]);
    // GitLab's default order: created_at desc, so the first 10 are the newest 10.
    expect(limited.map((p) => p.id)).to.deep.equal(ids.slice(0, 10));

    const small = await explain('Projects.all({ perPage: 7 })', () => api.Projects.all({ perPage: 7 }));
    expect(small.map((p) => p.id)).to.deep.equal(ids);

    const expanded = await explain('Projects.all({ perPage: 10, showExpanded: true })', () => api.Projects.all({ perPage: 10, showExpanded: true, pagination: 'offset' }));
    expect(expanded.data).to.have.length(total);
    // paginationInfo comes from the headers of the last page fetched.
    expect(expanded.paginationInfo).to.deep.include({ total, perPage: 10, totalPages: Math.ceil(total / 10), current: 5, next: null, previous: 4 });

    const page2 = await explain('Projects.all({ page: 2, perPage: 20 })', () => api.Projects.all({ pagination: 'offset', page: 2, perPage: 20 }));
    expect(page2.map((p) => p.id)).to.deep.equal(ids.slice(20, 40));
  });

  it('edits and removes a project', async () => {
    const edited = await explain('Projects.edit', () => api.Projects.edit(projectId, { description: 'edited by gitbeaker' }));
    expect(edited.description).to.equal('edited by gitbeaker');
    expect((await api.Projects.show(projectId)).description).to.equal('edited by gitbeaker');

    // gitbeaker sends DELETE with a JSON body ("{}"); 10.8 answers 202 {"message":"202 Accepted"}.
    await explain('Projects.remove', () => api.Projects.remove(bulkIds[0]));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await s.get(`/projects/${bulkIds[0]}`);
      if (r.status === 404) break;
      expect(Date.now(), `project ${bulkIds[0]} still readable after Projects.remove (HTTP ${r.status})`).to.be.below(deadline);
      await new Promise((res) => setTimeout(res, 200));
    }
    const all = await api.Projects.all({ perPage: 100 });
    expect(all.map((p) => p.id)).to.not.include(bulkIds[0]);
  });
});
