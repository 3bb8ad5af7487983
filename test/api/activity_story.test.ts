// One realistic story told through the API and git, then read back as each participant sees
// it: a project is created, members join, an issue is opened and assigned, people are
// mentioned, someone comments, a confidential issue is filed, code arrives by API commit and
// by git push, a merge request is opened and merged, the issue is closed. Every user's events
// and to-dos are asserted exactly, with the filters and the visibility rules.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import type { Account } from '../helpers/roles.js';
import { commit, gitOk, repoUrl, tempDir } from '../transport/git_client.js';

describe('Activity story: events and to-dos', () => {
  let s: TestServer;
  let alice: Account; // owner
  let bob: Account; // developer
  let carol: Account; // reporter
  let gina: Account; // guest
  let sam: Account; // signed in, member of nothing
  let projectId: number;
  let fullPath: string;
  let crash: any; // issue #1
  let hole: any; // confidential issue #2
  let note: any; // bob's comment on #1
  let mr: any;
  let mrNote: any; // Carol's comment on the merge request
  let fixSha: string;

  const ev = (e: any) => {
    const what = e.push_data ? `${e.push_data.ref}:${e.push_data.commit_count}` : (e.target_title ?? '-');
    return `${e.author_username} ${e.action_name} ${e.target_type ?? '-'} ${what}`;
  };

  async function events(path: string, token: string | null, query: Record<string, string | number> = {}) {
    const r = await s.get(path, { token, query: { per_page: 100, sort: 'asc', ...query } });
    expect(r.status, r.text).to.equal(200);
    return (r.body as any[]).map(ev);
  }

  async function todos(who: Account, query: Record<string, string | number> = {}) {
    const r = await s.get('/todos', { token: who.token, query: { per_page: 100, ...query } });
    expect(r.status, r.text).to.equal(200);
    return r.body as any[];
  }

  const brief = (list: any[]) => list.map((t) => `${t.author.username} ${t.action_name} ${t.target_type} ${t.body}`);

  before(async function () {
    this.timeout(120_000);
    s = await bootServer();
    alice = await s.createUser('alice');
    bob = await s.createUser('bob');
    carol = await s.createUser('carol');
    gina = await s.createUser('gina');
    sam = await s.createUser('sam');

    const ok = (r: { status: number; text: string }, status: number) => expect(r.status, r.text).to.equal(status);
    // 1. Alice creates a public project and adds her team.
    let r = await s.post('/projects', { token: alice.token, json: { name: 'story', visibility: 'public' } });
    ok(r, 201);
    projectId = r.body.id;
    fullPath = r.body.path_with_namespace;
    for (const [who, level] of [
      [bob, 30],
      [carol, 20],
      [gina, 10],
    ] as const) {
      ok(await s.post(`/projects/${projectId}/members`, { token: alice.token, json: { user_id: who.user.id, access_level: level } }), 201);
    }
    // 2. Code arrives through the API.
    ok(
      await s.post(`/projects/${projectId}/repository/files/README.md`, { token: alice.token, json: { branch: 'master', content: '# story\n', commit_message: 'Add README' } }),
      201,
    );
    // 3. An issue, assigned to Bob, addressing Carol.
    r = await s.post(`/projects/${projectId}/issues`, {
      token: alice.token,
      json: { title: 'Crash on start', description: '@carol can you reproduce?', assignee_ids: [bob.user.id] },
    });
    ok(r, 201);
    crash = r.body;
    // 4. Bob comments, addressing Gina.
    r = await s.post(`/projects/${projectId}/issues/${crash.iid}/notes`, { token: bob.token, json: { body: '@gina FYI, fixing it now' } });
    ok(r, 201);
    note = r.body;
    // 5. A confidential issue mentions the guest (who cannot read it) and the reporter.
    r = await s.post(`/projects/${projectId}/issues`, { token: alice.token, json: { title: 'Security hole', description: '@gina @carol please look', confidential: true } });
    ok(r, 201);
    hole = r.body;
    // 6. Bob pushes a fix branch with git.
    const dir = tempDir('wharf-story-');
    await gitOk(['clone', '-q', repoUrl(s, fullPath, bob.token, 'bob'), dir]);
    await gitOk(['checkout', '-q', '-b', 'fix'], { cwd: dir });
    fixSha = await commit(dir, { 'main.c': 'int main() { return 0; }\n' }, 'Fix the crash on start');
    await gitOk(['push', '-q', 'origin', 'fix'], { cwd: dir });
    // 7. Bob opens a merge request assigned to Alice; Alice merges it.
    r = await s.post(`/projects/${projectId}/merge_requests`, {
      token: bob.token,
      json: { title: 'Fix the crash', source_branch: 'fix', target_branch: 'master', assignee_id: alice.user.id, description: 'Ready for @alice' },
    });
    ok(r, 201);
    mr = r.body;
    r = await s.post(`/projects/${projectId}/merge_requests/${mr.iid}/notes`, { token: carol.token, json: { body: 'Looks good, @bob' } });
    ok(r, 201);
    mrNote = r.body;
    r = await s.put(`/projects/${projectId}/merge_requests/${mr.iid}/merge`, { token: alice.token, json: {} });
    ok(r, 200);
    // 8. Alice closes the issue.
    ok(await s.put(`/projects/${projectId}/issues/${crash.iid}`, { token: alice.token, json: { state_event: 'close' } }), 200);
  });
  after(async () => s.close());

  it('lists every event of the project, oldest first, for a reporter', async () => {
    expect(await events(`/projects/${projectId}/events`, carol.token)).to.deep.equal([
      'alice created - -',
      'bob joined - -',
      'carol joined - -',
      'gina joined - -',
      'alice pushed new - master:1',
      'alice opened Issue Crash on start',
      'bob commented on Note Crash on start',
      'alice opened Issue Security hole',
      'bob pushed new - fix:1',
      'bob opened MergeRequest Fix the crash',
      'carol commented on Note Fix the crash',
      'alice accepted MergeRequest Fix the crash',
      'alice pushed to - master:2', // the fix and the merge commit
      'alice closed Issue Crash on start',
    ]);
  });

  it('hides the confidential issue from the guest, strangers and anonymous visitors', async () => {
    const all = await events(`/projects/${projectId}/events`, carol.token);
    const withoutSecret = all.filter((e) => !e.includes('Security hole'));
    expect(await events(`/projects/${projectId}/events`, gina.token)).to.deep.equal(withoutSecret);
    expect(await events(`/projects/${projectId}/events`, sam.token)).to.deep.equal(withoutSecret);
    expect(await events(`/projects/${projectId}/events`, null)).to.deep.equal(withoutSecret);
    expect(await events(`/projects/${projectId}/events`, ROOT_TOKEN)).to.deep.equal(all);
  });

  it('gives each user their own contribution events', async () => {
    expect(await events('/events', alice.token)).to.deep.equal([
      'alice created - -',
      'alice pushed new - master:1',
      'alice opened Issue Crash on start',
      'alice opened Issue Security hole',
      'alice accepted MergeRequest Fix the crash',
      'alice pushed to - master:2', // the fix and the merge commit
      'alice closed Issue Crash on start',
    ]);
    expect(await events('/users/bob/events', null)).to.deep.equal([
      'bob joined - -',
      'bob commented on Note Crash on start',
      'bob pushed new - fix:1',
      'bob opened MergeRequest Fix the crash',
    ]);
    expect(await events(`/users/${carol.user.id}/events`, sam.token)).to.deep.equal(['carol joined - -', 'carol commented on Note Fix the crash']);
    expect(await events('/users/alice/events', gina.token)).to.deep.equal((await events('/events', alice.token)).filter((e) => !e.includes('Security hole')));
  });

  it('filters by action and target type, and shows notes and push data in full', async () => {
    expect(await events(`/projects/${projectId}/events`, carol.token, { action: 'merged' })).to.deep.equal(['alice accepted MergeRequest Fix the crash']);
    expect(await events(`/projects/${projectId}/events`, carol.token, { target_type: 'merge_request' })).to.deep.equal([
      'bob opened MergeRequest Fix the crash',
      'alice accepted MergeRequest Fix the crash',
    ]);
    expect(await events(`/projects/${projectId}/events`, carol.token, { action: 'joined', sort: 'desc' })).to.deep.equal(['gina joined - -', 'carol joined - -', 'bob joined - -']);
    const [comment, review] = (await s.get(`/projects/${projectId}/events`, { query: { target_type: 'note', sort: 'asc' } })).body;
    expect(review.note).to.deep.include({ id: mrNote.id, noteable_type: 'MergeRequest', noteable_id: mr.id, noteable_iid: mr.iid });
    expect(review).to.include({ target_title: 'Fix the crash', target_iid: mrNote.id });
    expect(comment).to.include({ target_type: 'Note', target_id: note.id, target_iid: note.id, target_title: 'Crash on start', author_username: 'bob' });
    expect(comment.note).to.deep.include({ id: note.id, body: '@gina FYI, fixing it now', noteable_type: 'Issue', noteable_id: crash.id, noteable_iid: crash.iid });
    const pushes = (await s.get(`/users/bob/events`, { query: { action: 'pushed' } })).body;
    expect(pushes[0].push_data).to.deep.equal({
      commit_count: 1,
      action: 'created',
      ref_type: 'branch',
      commit_from: null,
      commit_to: fixSha,
      ref: 'fix',
      commit_title: 'Fix the crash on start',
    });
    const [merged] = (await s.get(`/projects/${projectId}/events`, { query: { action: 'merged' } })).body;
    expect(merged).to.include({ target_id: mr.id, target_iid: mr.iid, target_type: 'MergeRequest' });
  });

  it('leaves each user exactly the to-dos the story gave them', async () => {
    // Alice: assigned the merge request, done when she merged it; her mention in its description
    // is her own MR's assignment already (one pending per target).
    expect(await todos(alice)).to.deep.equal([]);
    expect(brief(await todos(alice, { state: 'done' }))).to.deep.equal(['bob assigned MergeRequest Fix the crash']);
    // Bob: assigned the issue, done when he commented on it; addressed by Carol's review comment
    // (mentions at the end of a text are plain mentions).
    const [review] = await todos(bob);
    expect(brief([review])).to.deep.equal(['carol mentioned MergeRequest Looks good, @bob']);
    expect(review.target_url).to.equal(`${s.url}/${fullPath}/merge_requests/${mr.iid}#note_${mrNote.id}`);
    expect(review.target).to.include({ id: mr.id, iid: mr.iid, state: 'merged' });
    expect(await todos(bob, { type: 'Issue' })).to.deep.equal([]);
    expect(brief(await todos(bob, { state: 'done' }))).to.deep.equal(['alice assigned Issue Crash on start']);
    // Carol: addressed on both issues (she may read the confidential one).
    expect(brief(await todos(carol))).to.deep.equal(['alice directly_addressed Issue Security hole', 'alice directly_addressed Issue Crash on start']);
    // Gina: addressed by Bob's comment, but not on the confidential issue she cannot read.
    const [fromNote, ...rest] = await todos(gina);
    expect(rest).to.deep.equal([]);
    expect(fromNote).to.include({ action_name: 'directly_addressed', target_type: 'Issue', body: '@gina FYI, fixing it now' });
    expect(fromNote.target_url).to.equal(`${s.url}/${fullPath}/issues/${crash.iid}#note_${note.id}`);
    expect(fromNote.target).to.include({ id: crash.id, iid: crash.iid, state: 'closed' });
    expect(await todos(sam)).to.deep.equal([]);
    void hole;
  });

  it('embeds the full merge request in a merge request to-do, and marks it on request', async () => {
    let r = await s.post(`/projects/${projectId}/merge_requests/${mr.iid}/todo`, { token: carol.token });
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ action_name: 'marked', target_type: 'MergeRequest', body: 'Fix the crash', state: 'pending' });
    expect(r.body.target).to.deep.equal((await s.get(`/projects/${projectId}/merge_requests/${mr.iid}`, { token: carol.token })).body);
    expect(r.body.target_url).to.equal(`${s.url}/${fullPath}/merge_requests/${mr.iid}`);
    r = await s.post(`/projects/${projectId}/merge_requests/${mr.iid}/todo`, { token: carol.token });
    expect(r.status).to.equal(304);
    expect(brief(await todos(carol, { type: 'MergeRequest' }))).to.deep.equal(['carol marked MergeRequest Fix the crash']);
    r = await s.post('/todos/mark_as_done', { token: carol.token, query: { type: 'MergeRequest' } });
    expect(r.status).to.equal(204);
    expect(await todos(carol, { type: 'MergeRequest' })).to.deep.equal([]);
    expect(await todos(carol)).to.have.length(2); // the issue to-dos stay pending
  });
});
