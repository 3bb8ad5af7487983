// A commit's comments, refs and merge requests (GitLab 10.8 lib/api/commits.rb): comments on
// the commit and on lines of its diff, the branches and tags containing it, and the merge
// requests whose commits include it.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { createBranch, openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';
import { head } from '../helpers/bare_git.js';

const TWENTY = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
const CHANGED = TWENTY.replace('l2\n', 'L2\n') + 'l21\n';

describe('Commit comments, refs and merge requests API', function () {
  this.timeout(60000);
  const { s, owner, dev, reporter, guest, stranger } = useServerWithRoles();
  let n = 0;

  /** master: c1 (lines.txt); feature: c2 (changes line 2, adds line 21), tagged v1; `other` at c1; an MR feature → master. */
  async function setup(visibility = 'private') {
    const p = await projectWithRoles(s, owner, { dev, reporter, guest }, { name: `c${++n}`, visibility });
    const dir = repoDir(s, p.path_with_namespace);
    const c1 = await writeFiles(s, { id: p.id, dir }, 'master', { 'lines.txt': TWENTY }, { token: owner.token, message: 'Initial' });
    const c2 = await writeFiles(s, { id: p.id, dir }, 'feature', { 'lines.txt': CHANGED }, { token: owner.token, message: 'Change', start: 'master' });
    expect((await s.post(`/projects/${p.id}/repository/tags`, { token: owner.token, json: { tag_name: 'v1', ref: 'feature' } })).status).to.equal(201);
    await createBranch(s, p.id, 'other', 'master', owner.token);
    const mr = await openMergeRequest(s, p.id, { source_branch: 'feature', target_branch: 'master', title: 'Feature' }, dev.token);
    return { id: p.id as number, dir, c1, c2, mr, commits: `/projects/${p.id}/repository/commits` };
  }

  describe('comments', () => {
    it('comments on a commit and on lines of its diff; lists them oldest first', async () => {
      const p = await setup();
      const url = `${p.commits}/${p.c2}/comments`;
      const plain = await s.post(url, { token: reporter.token, json: { note: 'Nice' } });
      expect(plain.status, plain.text).to.equal(201);
      expectSchema(plain.body, 'public_api/v4/commit_note.json');
      expect(Object.keys(plain.body)).to.deep.equal(['note', 'path', 'line', 'line_type', 'author', 'created_at']);
      expect(plain.body).to.include({ note: 'Nice', path: null, line: null, line_type: null });
      expect(plain.body.author.username).to.equal('reporter');

      const added = await s.post(url, { token: reporter.token, json: { note: 'On L2', path: 'lines.txt', line: 2, line_type: 'new' } });
      expect(added.body).to.include({ path: 'lines.txt', line: 2, line_type: 'new' });
      const byDefault = await s.post(url, { token: reporter.token, form: { note: 'On l21', path: 'lines.txt', line: '21' } });
      expect(byDefault.body).to.include({ path: 'lines.txt', line: 21, line_type: 'new' });
      // A removed line has no new-side number to show.
      const removed = await s.post(url, { token: reporter.token, json: { note: 'On old l2', path: 'lines.txt', line: 2, line_type: 'old' } });
      expect(removed.body).to.include({ path: 'lines.txt', line: null, line_type: 'old' });
      // A line outside the diff makes a comment on the whole commit, as in 10.8.
      const outside = await s.post(url, { token: reporter.token, json: { note: 'Far away', path: 'lines.txt', line: 10 } });
      expect(outside.body).to.include({ path: null, line: null, line_type: null });

      // A discussion note of the commit is one of its comments too.
      const d = await s.post(`${p.commits}/${p.c2}/discussions`, { token: dev.token, json: { body: 'Thread' } });
      expect(d.status).to.equal(201);
      const list = await s.get(`${p.commits}/feature/comments`, { token: reporter.token });
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-total')).to.equal('6');
      expectSchema(list.body, 'public_api/v4/commit_notes.json');
      expect(list.body.map((c: any) => c.note)).to.deep.equal(['Nice', 'On L2', 'On l21', 'On old l2', 'Far away', 'Thread']);
      // Comments stay with their commit.
      expect((await s.get(`${p.commits}/${p.c1}/comments`, { token: reporter.token })).body).to.deep.equal([]);
      // A line comment is a thread of its own in the commit's discussions.
      const threads = await s.get(`${p.commits}/${p.c2}/discussions`, { token: reporter.token });
      expect(threads.body.map((t: any) => [t.individual_note, t.notes[0].type])).to.deep.equal([
        [true, null],
        [false, 'LegacyDiffNote'],
        [false, 'LegacyDiffNote'],
        [false, 'LegacyDiffNote'],
        [true, null],
        [false, 'DiscussionNote'],
      ]);
    });

    it("answers 10.8's errors with their statuses and bodies", async () => {
      const p = await setup();
      const url = `${p.commits}/${p.c2}/comments`;
      const cases: [string, Record<string, unknown>, string | null, number, unknown][] = [
        [url, { path: 'lines.txt', line: 2 }, reporter.token, 400, { error: 'note is missing' }],
        [url, { note: 'x', path: 'lines.txt' }, reporter.token, 400, { error: 'line is missing' }],
        [url, { note: 'x', path: 'lines.txt', line: 2, line_type: 'middle' }, reporter.token, 400, { error: 'line_type does not have a valid value' }],
        [url, { note: 'x', path: 'lines.txt', line: 'two' }, reporter.token, 400, { error: 'line is invalid' }],
        [url, { note: '  ' }, reporter.token, 400, { message: `Failed to save note {:note=>["can't be blank"]}` }],
        [`${p.commits}/${'0'.repeat(40)}/comments`, { note: 'x' }, reporter.token, 404, { message: '404 Commit Not Found' }],
        [url, { note: 'x' }, guest.token, 403, { message: '403 Forbidden' }],
        [url, { note: 'x' }, stranger.token, 404, { message: '404 Project Not Found' }],
        [url, { note: 'x' }, null, 401, { message: '401 Unauthorized' }],
      ];
      for (const [u, json, token, status, body] of cases) {
        const r = await s.post(u, { token, json });
        expect([r.status, r.body], `${u} ${JSON.stringify(json)}`).to.deep.equal([status, body]);
      }
      const get = await s.get(`${p.commits}/nope/comments`, { token: reporter.token });
      expect([get.status, get.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      const guestGet = await s.get(url, { token: guest.token });
      expect([guestGet.status, guestGet.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      expect((await s.get(url, { token: reporter.token })).body).to.deep.equal([]);
    });

    it("lets anyone signed in comment on a public project's commit, not the anonymous", async () => {
      const p = await setup('public');
      const url = `${p.commits}/${p.c1}/comments`;
      const anon = await s.post(url, { token: null, json: { note: 'x' } });
      expect([anon.status, anon.body]).to.deep.equal([401, { message: '401 Unauthorized' }]);
      const r = await s.post(url, { token: stranger.token, json: { note: 'drive-by' } });
      expect(r.status, r.text).to.equal(201);
      expect((await s.get(url, { token: null })).body.map((c: any) => c.note)).to.deep.equal(['drive-by']);
    });
  });

  describe('refs', () => {
    it('lists the branches, then the tags, containing the commit', async () => {
      const p = await setup();
      const url = (sha: string) => `${p.commits}/${sha}/refs`;
      let r = await s.get(url(p.c1), { token: reporter.token });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([
        { type: 'branch', name: 'feature' },
        { type: 'branch', name: 'master' },
        { type: 'branch', name: 'other' },
        { type: 'tag', name: 'v1' },
      ]);
      r = await s.get(url(p.c2), { token: reporter.token, query: { type: 'branch' } });
      expect(r.body).to.deep.equal([{ type: 'branch', name: 'feature' }]);
      r = await s.get(url('master'), { token: reporter.token, query: { type: 'tag' } });
      expect(r.body).to.deep.equal([{ type: 'tag', name: 'v1' }]);
      r = await s.get(url(p.c1), { token: reporter.token, query: { per_page: 2, page: 2 } });
      expect(r.body.map((x: any) => x.name)).to.deep.equal(['other', 'v1']);
      expect(r.headers.get('x-total')).to.equal('4');
      r = await s.get(url(p.c1), { token: reporter.token, query: { type: 'remote' } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'type does not have a valid value' }]);
      r = await s.get(url('f'.repeat(40)), { token: reporter.token });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      r = await s.get(url(p.c1), { token: guest.token });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
    });
  });

  describe('merge requests', () => {
    it('lists the merge requests whose commits include the commit', async () => {
      const p = await setup();
      let r = await s.get(`${p.commits}/${p.c2}/merge_requests`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/merge_requests.json');
      expect(r.body.map((m: any) => m.iid)).to.deep.equal([p.mr.iid]);
      // The commit it starts from is the target's, not one of its own.
      r = await s.get(`${p.commits}/${p.c1}/merge_requests`, { token: reporter.token });
      expect(r.body).to.deep.equal([]);
      r = await s.get(`${p.commits}/${'a'.repeat(40)}/merge_requests`, { token: reporter.token });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      expect(head(p.dir, 'feature')).to.equal(p.c2);
    });
  });
});
