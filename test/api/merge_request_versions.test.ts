// A merge request's diff versions (GitLab 10.8's merge_request_diffs.rb): one version when it
// is opened and one more each time its source or target branch moves, listed newest first and
// paginated, each shown with its commits and diffs; signed-in readers only; and a diff note
// placed on an older version's commits is accepted.
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject, openMergeRequest } from '../helpers/projects.js';

const VERSION_KEYS = ['id', 'head_commit_sha', 'base_commit_sha', 'start_commit_sha', 'created_at', 'merge_request_id', 'state', 'real_size'];

describe('merge request diff versions', () => {
  let s: TestServer;
  let owner: { token: string; user: any };
  let stranger: { token: string };
  let project: any;
  let mr: any;
  let shas: { master: string; first: string; second: string; master2: string };
  const url = () => `/projects/${project.id}/merge_requests/${mr.iid}/versions`;

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('olga');
    stranger = await s.createUser('stan');
    project = await createProject(s, owner.token, { name: 'app', visibility: 'public' });
    const master = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'one\n' }], { token: owner.token });
    const first = await commitFiles(s, project.id, 'feature', [{ action: 'create', file_path: 'a.txt', content: 'a\nb\n' }], { token: owner.token, start: 'master' });
    mr = await openMergeRequest(s, project.id, { source_branch: 'feature', target_branch: 'master', title: 'A' }, owner.token);
    const second = await commitFiles(s, project.id, 'feature', [{ action: 'create', file_path: 'b.txt', content: 'b\n' }], { token: owner.token });
    const master2 = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'c.txt', content: 'c\n' }], { token: owner.token });
    shas = { master, first, second, master2 };
  });
  after(() => s.close());

  it('records a version when opened and each time a branch moves, newest first, paginated', async () => {
    const r = await s.get(url(), { token: owner.token });
    expect(r.status).to.equal(200);
    expect(r.headers.get('x-total')).to.equal('3');
    expect(r.body.map((v: any) => [v.head_commit_sha, v.start_commit_sha, v.base_commit_sha, v.real_size])).to.deep.equal([
      [shas.second, shas.master2, shas.master, '2'],
      [shas.second, shas.master, shas.master, '2'],
      [shas.first, shas.master, shas.master, '1'],
    ]);
    for (const v of r.body) {
      expect(v).to.have.all.keys(...VERSION_KEYS);
      expect(v).to.include({ merge_request_id: mr.id, state: 'collected' });
    }
    const page = await s.get(url(), { token: owner.token, query: { per_page: 1, page: 2 } });
    expect(page.body.map((v: any) => v.id)).to.deep.equal([r.body[1].id]);
    expect(page.headers.get('x-total-pages')).to.equal('3');
  });

  it('shows one version with its commits and diffs', async () => {
    const [, , oldest] = (await s.get(url(), { token: owner.token })).body;
    const r = await s.get(`${url()}/${oldest.id}`, { token: owner.token });
    expect(r.status).to.equal(200);
    expect(r.body).to.have.all.keys(...VERSION_KEYS, 'commits', 'diffs');
    expect(r.body.commits.map((c: any) => c.id)).to.deep.equal([shas.first]);
    expect(r.body.diffs).to.have.length(1);
    expect(r.body.diffs[0]).to.include({ new_path: 'a.txt', new_file: true });
    expect(r.body.diffs[0].diff).to.include('+a\n+b\n');
  });

  it("answers 401 to anonymous callers, 404 to those who cannot read it, and 10.8's errors", async () => {
    expect((await s.get(url(), { token: null })).status).to.equal(401);
    const hidden = await createProject(s, owner.token, { name: 'hidden', visibility: 'private' });
    expect((await s.get(`/projects/${hidden.id}/merge_requests/1/versions`, { token: stranger.token })).body).to.deep.equal({ message: '404 Project Not Found' });
    expect((await s.get(`/projects/${project.id}/merge_requests/99/versions`, { token: owner.token })).status).to.equal(404);
    const missing = await s.get(`${url()}/999999`, { token: owner.token });
    expect([missing.status, missing.body]).to.deep.equal([404, { message: '404 Not found' }]);
    const bad = await s.get(`${url()}/abc`, { token: owner.token });
    expect([bad.status, bad.body]).to.deep.equal([400, { error: 'version_id is invalid' }]);
  });

  it('takes a diff note on an older version, and refuses commits that are no version of it', async () => {
    const [, , oldest] = (await s.get(url(), { token: owner.token })).body;
    const position = {
      base_sha: oldest.base_commit_sha,
      start_sha: oldest.start_commit_sha,
      head_sha: oldest.head_commit_sha,
      position_type: 'text',
      new_path: 'a.txt',
      new_line: 2,
    };
    const r = await s.post(`/projects/${project.id}/merge_requests/${mr.iid}/discussions`, { token: owner.token, json: { body: 'on the first version', position } });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.notes[0].position).to.include({ head_sha: shas.first, new_line: 2 });
    const wrong = await s.post(`/projects/${project.id}/merge_requests/${mr.iid}/discussions`, {
      token: owner.token,
      json: { body: 'nowhere', position: { ...position, head_sha: shas.master2 } },
    });
    expect(wrong.status).to.equal(400);
  });
});
