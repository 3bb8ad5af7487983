// Values that once answered 500: JSON null for a required parameter (Grape's "is empty", or
// the model's "can't be blank" where GitLab's model gives it), JSON null for an optional one
// whose column cannot hold it (taken as not given: the default on create, no change on update),
// a value longer than its column, a NUL character or FTS syntax in `search`, and an archive of
// a branch named outside Latin-1 (RFC 6266 Content-Disposition).
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createBranch, createProject, created, openMergeRequest } from '../helpers/projects.js';

describe('hostile values', () => {
  let s: TestServer;
  let project: any;
  let base: string;
  let issueIid: number;
  let mrIid: number;
  let noteId: number;
  let userId: number;
  let groupId: number;

  before(async () => {
    s = await bootServer();
    project = await createProject(s, ROOT_TOKEN, { name: 'hostile', visibility: 'public' });
    base = `/projects/${project.id}`;
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hi\n' }], { token: ROOT_TOKEN });
    await createBranch(s, project.id, 'feature', 'master', ROOT_TOKEN);
    await commitFiles(s, project.id, 'feature', [{ action: 'create', file_path: 'f.txt', content: 'f\n' }], { token: ROOT_TOKEN });
    issueIid = created(await s.post(`${base}/issues`, { json: { title: 'Quoted "words" and NEAR(fts) syntax', description: 'abcdef' } })).iid;
    mrIid = (await openMergeRequest(s, project.id, { title: 'an abcdef change', source_branch: 'feature', target_branch: 'master' }, ROOT_TOKEN)).iid;
    noteId = created(await s.post(`${base}/issues/${issueIid}/notes`, { json: { body: 'note' } })).id;
    userId = (await s.createUser('member')).user.id;
    groupId = created(await s.post('/groups', { json: { name: 'hg', path: 'hg' } })).id;
  });
  after(async () => s.close());

  describe('JSON null for a required parameter', () => {
    const empty = (name: string) => ({ error: `${name} is empty` });

    it('answers Grape\'s "is empty" on every route that requires it, and changes nothing', async () => {
      const cases: [string, string, Record<string, unknown>, string][] = [
        ['POST', `${base}/repository/files/new.txt`, { branch: 'master', commit_message: 'm', content: null }, 'content'],
        ['PUT', `${base}/repository/files/README.md`, { branch: 'master', commit_message: 'm', content: null }, 'content'],
        ['POST', `${base}/issues/${issueIid}/notes`, { body: null }, 'body'],
        ['PUT', `${base}/issues/${issueIid}/notes/${noteId}`, { body: null }, 'body'],
        ['POST', `${base}/merge_requests/${mrIid}/notes`, { body: null }, 'body'],
        ['POST', '/groups', { name: null, path: 'p' }, 'name'],
        ['POST', '/groups', { name: 'n', path: null }, 'path'],
        ['POST', '/users', { email: null, name: 'n', username: 'u', password: 'password123' }, 'email'],
        ['POST', '/users', { email: 'e@example.com', name: null, username: 'u', password: 'password123' }, 'name'],
        ['POST', `${base}/issues/${issueIid}/add_spent_time`, { duration: null }, 'duration'],
        ['POST', `${base}/merge_requests/${mrIid}/time_estimate`, { duration: null }, 'duration'],
        ['PUT', `${base}/custom_attributes/k`, { value: null }, 'value'],
        ['PUT', `/users/${userId}/custom_attributes/k`, { value: null }, 'value'],
        ['POST', `${base}/issues/${issueIid}/award_emoji`, { name: null }, 'name'],
        ['POST', `${base}/labels`, { name: null, color: '#ffffff' }, 'name'],
        ['POST', `${base}/protected_branches`, { name: null }, 'name'],
        ['POST', `${base}/repository/branches`, { branch: null, ref: 'master' }, 'branch'],
        ['POST', `${base}/members`, { user_id: userId, access_level: null }, 'access_level'],
        ['POST', `/projects/user/${userId}`, { name: null }, 'name'],
        ['POST', `/users/${userId}/impersonation_tokens`, { name: null, scopes: ['api'] }, 'name'],
      ];
      for (const [method, path, json, name] of cases) {
        const r = await s.request(method, path, { json });
        expect([r.status, r.body], `${method} ${path} ${JSON.stringify(json)}`).to.deep.equal([400, empty(name)]);
      }
      const readme = await s.get(`${base}/repository/files/README.md/raw`, { query: { ref: 'master' } });
      expect(readme.text).to.equal('hi\n');
      expect((await s.get(`${base}/repository/files/new.txt`, { query: { ref: 'master' } })).status).to.equal(404);
      expect((await s.get(`${base}/custom_attributes`)).body).to.deep.equal([]);
      expect((await s.get(`${base}/issues/${issueIid}/notes`)).body.map((n: any) => n.body)).to.deep.equal(['note']);
    });

    it('answers a null project name or path as GitLab\'s model does: "can\'t be blank"', async () => {
      const blank = { message: { name: ["can't be blank"], path: ["can't be blank"] } };
      for (const json of [{ name: null }, { path: null }, { name: null, path: null }]) {
        const r = await s.post('/projects', { json });
        expect([r.status, r.body], JSON.stringify(json)).to.deep.equal([400, blank]);
      }
      const rename = await s.put(base, { json: { name: null } });
      expect([rename.status, rename.body]).to.deep.equal([400, { message: { name: ["can't be blank"] } }]);
      const move = await s.put(base, { json: { path: null } });
      expect([move.status, move.body]).to.deep.equal([400, { message: { path: ["can't be blank"] } }]);
      expect((await s.get(base)).body.path_with_namespace).to.equal(project.path_with_namespace);
    });

    it("answers a null e-mail, username or name of a user update as GitLab's model does", async () => {
      for (const name of ['email', 'username', 'name']) {
        const r = await s.put(`/users/${userId}`, { json: { [name]: null } });
        expect([r.status, r.body], name).to.deep.equal([400, { message: { [name]: ["can't be blank"] } }]);
      }
      expect((await s.get(`/users/${userId}`)).body.username).to.equal('member');
    });
  });

  describe('JSON null for an optional parameter', () => {
    it('creates a project hook or a system hook with the defaults of the fields given null', async () => {
      const nulls = {
        push_events: null,
        issues_events: null,
        confidential_issues_events: null,
        tag_push_events: null,
        note_events: null,
        enable_ssl_verification: null,
        token: null,
      };
      const hook = await s.post(`${base}/hooks`, { json: { url: 'http://example.com/null-hook', ...nulls } });
      expect(hook.status, hook.text).to.equal(201);
      expect(hook.body).to.include({
        push_events: true,
        issues_events: false,
        confidential_issues_events: false,
        tag_push_events: false,
        note_events: false,
        enable_ssl_verification: true,
      });
      const system = await s.post('/hooks', {
        json: { url: 'http://example.com/null-system-hook', push_events: null, tag_push_events: null, merge_requests_events: null, enable_ssl_verification: null, token: null },
      });
      expect(system.status, system.text).to.equal(201);
      expect(system.body).to.include({ push_events: false, tag_push_events: false, merge_requests_events: false, enable_ssl_verification: true });
    });

    it('changes nothing of a hook, a variable or a project for the fields given null', async () => {
      const hook = created(await s.post(`${base}/hooks`, { json: { url: 'http://example.com/kept', push_events: false, job_events: true, token: 'kept-secret' } }));
      const put = await s.put(`${base}/hooks/${hook.id}`, { json: { url: 'http://example.com/kept', push_events: null, job_events: null, wiki_page_events: null, token: null } });
      expect(put.status, put.text).to.equal(200);
      expect(put.body).to.include({ push_events: false, job_events: true, wiki_page_events: false });
      expect((await s.db('web_hooks').where({ id: hook.id }).first()).token).to.equal('kept-secret');

      created(await s.post(`${base}/variables`, { json: { key: 'KEPT', value: 'v1' } }));
      const variable = await s.put(`${base}/variables/KEPT`, { json: { value: null } });
      expect([variable.status, variable.body]).to.deep.equal([200, { key: 'KEPT', value: 'v1', protected: false }]);

      const features = await s.put(base, { json: { description: 'kept features', issues_enabled: null, merge_method: null, lfs_enabled: null } });
      expect(features.status, features.text).to.equal(200);
      expect(features.body).to.include({ description: 'kept features', issues_enabled: true, merge_method: 'merge', lfs_enabled: true }); // null: the stored setting kept
      expect((await s.db('projects').where({ id: features.body.id }).first()).lfs_enabled).to.be.oneOf([1, true]); // the stored setting kept
      const made = await s.post('/projects', { json: { name: 'null-features', issues_enabled: null, wiki_enabled: null, request_access_enabled: null } });
      expect(made.status, made.text).to.equal(201);
      expect(made.body).to.include({ issues_enabled: true, wiki_enabled: true, request_access_enabled: false });
    });

    it('changes nothing of a user, a group or a deploy key for the fields given null; nulls alone are no change at all', async () => {
      const user = await s.put(`/users/${userId}`, { json: { bio: 'kept bio', skype: null, twitter: null, website_url: null, projects_limit: null, admin: null, external: null } });
      expect(user.status, user.text).to.equal(200);
      expect(user.body).to.include({ bio: 'kept bio', skype: '', twitter: '', website_url: '', projects_limit: 100000, external: false });
      expect(await s.db('users').where({ id: userId }).first()).to.include({ bio: 'kept bio', skype: '', projects_limit: 100000 });
      const group = await s.put(`/groups/${groupId}`, { json: { name: 'hg', description: null, lfs_enabled: null, request_access_enabled: null } });
      expect(group.status, group.text).to.equal(200);
      expect(group.body).to.include({ description: '', lfs_enabled: true, request_access_enabled: false }); // null: the stored setting kept
      expect((await s.db('namespaces').where({ id: groupId }).first()).lfs_enabled).to.be.oneOf([1, true]); // the stored setting kept
      const key = created(
        await s.post(`${base}/deploy_keys`, { json: { title: 'k', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGz8x5yQ9vK1pPj3dS6o4Zs3hVZ7f2rQ8uG3Jw5mNc1e null@wharf' } }),
      );
      const nothing = await s.put(`${base}/deploy_keys/${key.id}`, { json: { title: null, can_push: null } });
      expect([nothing.status, nothing.body]).to.deep.equal([400, { error: 'title, can_push are missing, at least one parameter must be provided' }]);
    });

    it('still clears a nullable value with null (a description)', async () => {
      const issue = created(await s.post(`${base}/issues`, { json: { title: 'to clear', description: 'words' } }));
      const cleared = await s.put(`${base}/issues/${issue.iid}`, { json: { description: null } });
      expect(cleared.status, cleared.text).to.equal(200);
      expect(cleared.body.description).to.equal(null);
    });
  });

  describe('a value longer than its column', () => {
    it('answers the model\'s "is too long" for ci_config_path, a custom attribute and an impersonation token name', async () => {
      const long = 'x'.repeat(300);
      const tooLong = ['is too long (maximum is 255 characters)'];
      const cases: [string, string, Record<string, unknown>, Record<string, string[]>][] = [
        ['POST', '/projects', { name: 'long-ci-path', ci_config_path: long }, { ci_config_path: tooLong }],
        ['PUT', base, { ci_config_path: long }, { ci_config_path: tooLong }],
        ['PUT', `${base}/custom_attributes/long`, { value: long }, { value: tooLong }],
        ['PUT', `/users/${userId}/custom_attributes/${long}`, { value: 'v' }, { key: tooLong }],
        ['POST', `/users/${userId}/impersonation_tokens`, { name: long, scopes: ['api'] }, { name: tooLong }],
      ];
      for (const [method, path, json, message] of cases) {
        const r = await s.request(method, path, { json });
        expect([r.status, r.body], `${method} ${path}`).to.deep.equal([400, { message }]);
      }
      expect((await s.get(base)).body.ci_config_path).to.equal(null);
      expect((await s.get(`${base}/custom_attributes`)).body).to.deep.equal([]);
    });
  });

  describe('search', () => {
    it('answers issue and merge request lists for a search with a NUL character: nothing matches', async () => {
      for (const list of [`${base}/issues`, '/issues', `/groups/${groupId}/issues`, `${base}/merge_requests`, '/merge_requests']) {
        for (const search of ['abc\u0000def', '\u0000', 'abc\u0000', 'abcdef \u0000\u0000\u0000']) {
          const r = await s.get(list, { query: { search, scope: 'all' } });
          expect(r.status, `${list} ${JSON.stringify(search)}`).to.equal(200);
          expect(r.body, `${list} ${JSON.stringify(search)}`).to.deep.equal([]);
        }
      }
    });

    it('matches quotes and FTS syntax literally', async () => {
      const titles = async (search: string) => (await s.get(`${base}/issues`, { query: { search } })).body.map((i: any) => i.title);
      expect(await titles('NEAR(fts)')).to.deep.equal(['Quoted "words" and NEAR(fts) syntax']);
      expect(await titles('"words"')).to.deep.equal(['Quoted "words" and NEAR(fts) syntax']);
      expect(await titles('{title}: AND OR *')).to.deep.equal([]);
      expect(await titles('abcdef')).to.deep.equal(['Quoted "words" and NEAR(fts) syntax']);
      const mrs = await s.get(`${base}/merge_requests`, { query: { search: 'abcdef' } });
      expect(mrs.body.map((m: any) => m.iid)).to.deep.equal([mrIid]);
    });
  });

  describe('archives', () => {
    it('names an archive of a branch outside Latin-1 with RFC 6266 filename*', async () => {
      await createBranch(s, project.id, 'ветка', 'master', ROOT_TOKEN);
      const head = (await s.get(`${base}/repository/branches/${encodeURIComponent('ветка')}`)).body.commit.id;
      const res = await fetch(`${s.url}/api/v4${base}/repository/archive.zip?sha=${encodeURIComponent('ветка')}`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } });
      expect(res.status).to.equal(200);
      const prefix = `${project.path}-ветка-${head}`;
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="${project.path}-_____-${head}.zip"; filename*=UTF-8''${encodeURIComponent(prefix)}.zip`);
      expect(res.headers.get('content-type')).to.equal('application/zip');
      expect((await res.arrayBuffer()).byteLength).to.be.greaterThan(0);
    });
  });
});
