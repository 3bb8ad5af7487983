// Values no stored row can hold, answered the same way on SQLite and PostgreSQL (where they
// once were 500s: PostgreSQL text cannot hold a NUL, its integer columns stop at 2147483647):
// an id beyond that range names nothing (404 like a missing record, or "is invalid" where the
// parameter is declared an integer); a NUL in a string parameter is "<param> is invalid"; a
// search with a NUL matches nothing; file contents with NUL bytes are stored (they go to git).
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { createProject, created } from '../helpers/projects.js';

const TOO_BIG = '2147483648';
const HUGE = '99999999999999999999';

describe('values no row can hold (both engines)', () => {
  let s: TestServer;
  let project: any;
  let base: string;
  let groupId: number;

  before(async () => {
    s = await bootServer();
    project = await createProject(s, ROOT_TOKEN, { name: 'stored-values', visibility: 'public' });
    base = `/projects/${project.id}`;
    created(await s.post(`${base}/repository/files/README.md`, { json: { branch: 'master', content: 'hi\n', commit_message: 'init' } }));
    created(await s.post(`${base}/issues`, { json: { title: 'an issue' } }));
    groupId = created(await s.post('/groups', { json: { name: 'sv', path: 'sv' } })).id;
  });
  after(async () => s.close());

  it('answers ids beyond the integer range as missing records', async () => {
    const cases: [string, string][] = [
      [`/projects/${TOO_BIG}`, '404 Project Not Found'],
      [`/projects/${HUGE}`, '404 Project Not Found'],
      [`/projects/${HUGE}/issues`, '404 Project Not Found'],
      [`/groups/${TOO_BIG}`, '404 Group Not Found'],
      [`/groups/${HUGE}/projects`, '404 Group Not Found'],
      [`/users/${TOO_BIG}`, '404 User Not Found'],
      [`/users/${HUGE}/projects`, '404 User Not Found'],
      [`/projects/%00`, '404 Project Not Found'],
      [`/groups/%00`, '404 Group Not Found'],
    ];
    for (const [url, message] of cases) {
      const r = await s.get(url);
      expect([r.status, r.body], url).to.deep.equal([404, { message }]);
    }
    const del = await s.delete(`${base}/milestones/${TOO_BIG}`);
    expect([del.status, del.body]).to.deep.equal([404, { message: '404 Not found' }]);
    const sub = await s.post(`${base}/issues/${TOO_BIG}/subscribe`);
    expect([sub.status, sub.body]).to.deep.equal([404, { message: '404 Not found' }]);
  });

  it('answers integer parameters beyond the integer range with "is invalid"', async () => {
    const issue = await s.get(`${base}/issues/${TOO_BIG}`);
    expect([issue.status, issue.body]).to.deep.equal([400, { error: 'issue_iid is invalid' }]);
    const filter = await s.get(`${base}/issues`, { query: { milestone_id: TOO_BIG, author_id: TOO_BIG } });
    expect(filter.status).to.equal(400);
    expect(filter.body.error).to.match(/author_id is invalid/);
    const page = await s.get(`${base}/issues`, { query: { page: TOO_BIG } });
    expect([page.status, page.body]).to.deep.equal([200, []]); // a page past the end
  });

  it('answers a NUL character in a string parameter with "<param> is invalid"', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', `${base}/labels`, { name: 'a\u0000b', color: '#ffffff' }, 'name is invalid'],
      ['POST', `${base}/issues`, { title: 'a\u0000b' }, 'title is invalid'],
      ['POST', `${base}/milestones`, { title: 'a\u0000b' }, 'title is invalid'],
      ['POST', '/groups', { name: 'n', path: 'a\u0000b' }, 'path is invalid'],
      ['POST', '/users', { email: 'a\u0000b@example.com', name: 'n', username: 'u', password: 'password123' }, 'email is invalid'],
      ['POST', `${base}/repository/files/x.txt`, { branch: 'master', content: 'x', commit_message: 'a\u0000b' }, 'commit_message is invalid'],
      [
        'POST',
        `${base}/repository/commits`,
        { branch: 'master', commit_message: 'a\u0000b', actions: [{ action: 'create', file_path: 'y.txt', content: 'y' }] },
        'commit_message is invalid',
      ],
      [
        'POST',
        `${base}/repository/commits`,
        { branch: 'master', commit_message: 'm', actions: [{ action: 'create', file_path: 'y\u0000.txt', content: 'y' }] },
        'actions[0][file_path] is invalid',
      ],
    ];
    for (const [method, url, json, error] of cases) {
      const r = await s.request(method, url, { json });
      expect([r.status, r.body], `${method} ${url}`).to.deep.equal([400, { error }]);
    }
    const attr = await s.put(`/groups/${groupId}/custom_attributes/a%00b`, { json: { value: 'v' } });
    expect([attr.status, attr.body]).to.deep.equal([400, { error: 'key is invalid' }]);
    const branch = await s.get(`${base}/repository/branches/a%00b`);
    expect([branch.status, branch.body]).to.deep.equal([400, { error: 'branch is invalid' }]);
    const commits = await s.get(`${base}/repository/commits`);
    expect(commits.body).to.have.length(1); // nothing was committed
  });

  it('matches nothing for a search with a NUL character', async () => {
    for (const url of ['/projects', '/users', '/groups', '/namespaces', `/groups/${groupId}/projects`, `${base}/milestones`]) {
      const r = await s.get(url, { query: { search: 'stored\u0000values' } });
      expect([r.status, r.body], url).to.deep.equal([200, []]);
    }
  });

  it('stores file contents with NUL bytes, as text, base64 and in commit actions', async () => {
    const text = await s.post(`${base}/repository/files/nul.txt`, { json: { branch: 'master', content: 'a\u0000b', commit_message: 'text with NUL' } });
    expect(text.status, text.text).to.equal(201);
    const bytes = Buffer.from([0, 1, 2, 0, 255]);
    const b64 = await s.post(`${base}/repository/files/nul.bin`, { json: { branch: 'master', content: bytes.toString('base64'), encoding: 'base64', commit_message: 'binary' } });
    expect(b64.status, b64.text).to.equal(201);
    const multi = await s.post(`${base}/repository/commits`, {
      json: { branch: 'master', commit_message: 'actions', actions: [{ action: 'create', file_path: 'nul2.txt', content: '\u0000\u0000' }] },
    });
    expect(multi.status, multi.text).to.equal(201);
    const raw = async (file: string) =>
      Buffer.from(await (await fetch(`${s.url}/api/v4${base}/repository/files/${file}/raw?ref=master`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } })).arrayBuffer());
    expect(await raw('nul.txt')).to.deep.equal(Buffer.from('a\u0000b'));
    expect(await raw('nul.bin')).to.deep.equal(bytes);
    expect(await raw('nul2.txt')).to.deep.equal(Buffer.from([0, 0]));
  });
});
