// What a merge request shows of its branches (GitLab 10.8 GET .../commits, .../changes,
// .../participants, .../pipelines): history built with the real git command, answers checked
// against `git log` and `git diff` of the same commits.
import { expect } from 'chai';
import { git, gitDiff, WorkTree } from '../helpers/compare_git.js';
import { addProjectMembers, useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, openMergeRequest, repoDir } from '../helpers/projects.js';
import { DEVELOPER } from '../../src/policy/levels.js';

const COMMIT_KEYS = [
  'id',
  'short_id',
  'title',
  'created_at',
  'parent_ids',
  'message',
  'author_name',
  'author_email',
  'authored_date',
  'committer_name',
  'committer_email',
  'committed_date',
];

describe('Merge request commits, changes, participants, pipelines', () => {
  const { s, owner, dev, reporter, guest } = useServerWithRoles();
  let bare: string;
  let pid: number;
  let mr: { iid: number; id: number; diff_refs: { base_sha: string; head_sha: string; start_sha: string } };

  before(async function () {
    this.timeout(60000);
    const created = await projectWithRoles(s, owner, { dev, reporter, guest }, { name: 'hist', visibility: 'private' });
    pid = created.id;
    bare = repoDir(s, created.path_with_namespace);
    const w = new WorkTree(bare);
    w.write('README.md', 'hello\nworld\n').write('lib/a.rb', 'def a\n  1\nend\n').write('old.txt', 'old\n').write('run.sh', 'echo\n');
    w.write('doc/guide.md', Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n');
    w.commit('root');
    w.checkout('feature', true).write('lib/a.rb', 'def a\n  2\nend\n').write('lib/b.rb', 'b\n');
    w.commit('feature one\n\nWith a body.');
    w.checkout('master').write('master.txt', 'only on master\n');
    w.commit('master moves on');
    w.checkout('feature');
    git(w.dir, ['merge', '-q', '--no-edit', 'master'], { GIT_AUTHOR_DATE: '1500009000 +0000', GIT_COMMITTER_DATE: '1500009000 +0000' });
    w.move('doc/guide.md', 'doc/manual.md')
      .remove('old.txt')
      .write('run.sh', 'echo\n', 0o755)
      .write('logo.bin', Buffer.from([0, 1, 2, 3, 255, 0]));
    w.commit('feature two', { name: 'Bob Other', email: 'bob@example.com' });
    w.checkout('master').write('README.md', 'hello\nthere\n');
    w.commit('master again');
    w.push();
    w.close();
    mr = await openMergeRequest(s, pid, { title: 'Feature', source_branch: 'feature', target_branch: 'master', assignee_id: reporter.user.id }, dev.token);
  });

  const url = (suffix = '') => `/projects/${pid}/merge_requests/${mr.iid}${suffix}`;

  it('diff refs are git merge-base, master and feature', () => {
    expect(mr.diff_refs).to.deep.equal({
      base_sha: git(bare, ['merge-base', 'master', 'feature']).trim(),
      head_sha: git(bare, ['rev-parse', 'feature']).trim(),
      start_sha: git(bare, ['rev-parse', 'master']).trim(),
    });
  });

  it('lists the source commits not on the target, newest first, as git log master..feature', async () => {
    const r = await s.get(url('/commits'), { token: reporter.token });
    expect(r.status).to.equal(200);
    const expected = git(bare, ['log', '--format=%H', 'master..feature']).trim().split('\n');
    expect(r.body.map((c: { id: string }) => c.id)).to.deep.equal(expected);
    expect(expected).to.have.length(3); // feature one, the merge of master, feature two
    expect(Object.keys(r.body[0])).to.deep.equal(COMMIT_KEYS);
    expect(r.body[0]).to.include({ title: 'feature two', author_name: 'Bob Other', author_email: 'bob@example.com' });
    expect(r.body[0].parent_ids).to.deep.equal(git(bare, ['log', '-1', '--format=%P', 'feature']).trim().split(' '));
    const one = r.body.find((c: { title: string }) => c.title === 'feature one');
    expect(one.message).to.equal('feature one\n\nWith a body.\n');
    const paged = await s.get(url('/commits'), { token: reporter.token, query: { per_page: 1, page: 2 } });
    expect(paged.body.map((c: { id: string }) => c.id)).to.deep.equal([expected[1]]);
    expect(paged.headers.get('x-total')).to.equal('3');
  });

  it('shows the changes from the merge base to the source head, as git diff base feature', async () => {
    const r = await s.get(url('/changes'), { token: reporter.token });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ id: mr.id, iid: mr.iid, changes_count: '6' });
    expect(Object.keys(r.body).slice(-2)).to.deep.equal(['diff_refs', 'changes']);
    const expected = gitDiff(bare, mr.diff_refs.base_sha, mr.diff_refs.head_sha);
    expect(r.body.changes).to.deep.equal(
      expected.map((e) => ({
        old_path: e.old_path,
        new_path: e.new_path,
        a_mode: e.a_mode,
        b_mode: e.b_mode,
        new_file: e.status === 'A',
        renamed_file: e.status === 'R',
        deleted_file: e.status === 'D',
        diff: e.diff,
      })),
    );
    const byPath = new Map(r.body.changes.map((c: { new_path: string }) => [c.new_path, c]));
    expect(byPath.get('doc/manual.md')).to.include({ renamed_file: true, old_path: 'doc/guide.md' });
    expect(byPath.get('old.txt')).to.include({ deleted_file: true });
    expect(byPath.get('run.sh')).to.include({ a_mode: '100644', b_mode: '100755' });
    expect(byPath.has('master.txt')).to.equal(false); // came from the target
  });

  it('counts changed files as GitLab stored them: "1000+" past 1000 files, "<n>+" when the lines ran out', async function () {
    this.timeout(120000);
    const commit = (branch: string, actions: Record<string, unknown>[], start = 'master') => commitFiles(s, pid, branch, actions, { message: branch, start, token: owner.token });
    await commit(
      'many',
      Array.from({ length: 1001 }, (_, i) => ({ action: 'create', file_path: `many/f${i}.txt`, content: `${i}\n` })),
    );
    const long = Array.from({ length: 2000 }, (_, k) => `line ${k}`).join('\n') + '\n';
    await commit(
      'long',
      Array.from({ length: 30 }, (_, i) => ({ action: 'create', file_path: `long/f${i}.txt`, content: long })),
    );
    const open = (source: string) => openMergeRequest(s, pid, { title: source, source_branch: source, target_branch: 'master' }, owner.token);
    const many = await open('many');
    expect(many.changes_count).to.equal('1000+');
    const manyChanges = await s.get(`/projects/${pid}/merge_requests/${many.iid}/changes`, { token: owner.token });
    expect(manyChanges.body.changes).to.have.length(1000);
    const lng = await open('long');
    const longChanges = await s.get(`/projects/${pid}/merge_requests/${lng.iid}/changes`, { token: owner.token });
    const n = longChanges.body.changes.length;
    expect(n).to.be.within(20, 29);
    expect(lng.changes_count).to.equal(`${n}+`);
    expect(longChanges.body.changes_count).to.equal(`${n}+`);
  });

  it("lists participants in GitLab's order: assignee, author, commenters newest first, then mentioned readers", async () => {
    const stamp = new Date().toISOString();
    const outsider = await s.createUser('outsider');
    const master = await s.createUser('mentioned');
    await addProjectMembers(s, pid, [[master, DEVELOPER]]);
    for (const [who, body] of [
      [guest, 'x'],
      [owner, 'cc @mentioned and @outsider'],
      [guest, 'y'],
    ] as const) {
      await s
        .db('notes')
        .insert({ project_id: pid, noteable_type: 'MergeRequest', noteable_id: mr.id, author_id: who.user.id, body, system: false, created_at: stamp, updated_at: stamp });
    }
    const r = await s.get(url('/participants'), { token: reporter.token });
    expect(r.status).to.equal(200);
    // The outsider cannot read the private project: left out.
    expect(outsider.user.id).to.be.a('number');
    expect(r.body.map((u: { username: string }) => u.username)).to.deep.equal(['reporter', 'dev', 'guest', 'owner', 'mentioned']);
    expect(Object.keys(r.body[0])).to.deep.equal(['id', 'name', 'username', 'state', 'avatar_url', 'web_url']);
  });

  it('answers an empty pipeline list to reporters; guests 403; unreadable or missing 404', async () => {
    let r = await s.get(url('/pipelines'), { token: reporter.token });
    expect([r.status, r.body]).to.deep.equal([200, []]);
    r = await s.get(url('/pipelines'), { token: guest.token });
    expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
    for (const suffix of ['/commits', '/changes', '/participants']) {
      r = await s.get(url(suffix), { token: guest.token });
      expect([r.status, r.body], suffix).to.deep.equal([404, { message: '404 Not found' }]);
      r = await s.get(`/projects/${pid}/merge_requests/404${suffix}`, { token: owner.token });
      expect([r.status, r.body], suffix).to.deep.equal([404, { message: '404 Not found' }]);
    }
    r = await s.get(`/projects/${pid}/merge_requests/404/pipelines`, { token: owner.token });
    expect([r.status, r.body]).to.deep.equal([404, { message: '404 Not found' }]);
  });
});
