// An issue's participants, closed_by, user_agent_detail and move (GitLab 10.8
// lib/api/issues.rb), and follow-up issues that take over a merge request's discussions.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';

describe('Issue participants, closed_by, user_agent_detail, move and follow-ups', function () {
  this.timeout(60000);
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();
  let n = 0;

  async function project(json: Record<string, unknown> = {}) {
    const p = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `x${++n}`, visibility: 'private', ...json });
    return { id: p.id as number, path: p.path as string, full: p.path_with_namespace as string, dir: repoDir(s, p.path_with_namespace) };
  }
  const newIssue = async (projectId: number, json: Record<string, unknown>, token = reporter.token, headers: Record<string, string> = {}) => {
    const r = await s.post(`/projects/${projectId}/issues`, { token, json, headers });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  };

  describe('GET .../issues/:issue_iid/participants', () => {
    it('lists the assignees, the author, the commenters and those mentioned, each once, readers only', async () => {
      const p = await project();
      const issue = await newIssue(p.id, { title: 'Who', description: 'cc @master and @stranger' });
      expect((await s.put(`/projects/${p.id}/issues/${issue.iid}`, { token: master.token, json: { assignee_ids: [dev.user.id] } })).status).to.equal(200);
      await s.post(`/projects/${p.id}/issues/${issue.iid}/notes`, { token: guest.token, json: { body: 'me too' } });
      await s.post(`/projects/${p.id}/issues/${issue.iid}/notes`, { token: reporter.token, json: { body: 'again' } });
      const r = await s.get(`/projects/${p.id}/issues/${issue.iid}/participants`, { token: guest.token });
      expect(r.status).to.equal(200);
      expect(r.body.map((u: any) => u.username)).to.deep.equal(['dev', 'reporter', 'guest', 'master']);
      expect(Object.keys(r.body[0])).to.deep.equal(['id', 'name', 'username', 'state', 'avatar_url', 'web_url']);
      expect(r.headers.get('x-total')).to.equal('4');
      const cases: [string, string | null, number, unknown][] = [
        [`/projects/${p.id}/issues/${issue.iid}/participants`, null, 401, { message: '401 Unauthorized' }],
        [`/projects/${p.id}/issues/${issue.iid}/participants`, stranger.token, 404, { message: '404 Project Not Found' }],
        [`/projects/${p.id}/issues/999/participants`, reporter.token, 404, { message: '404 Not found' }],
      ];
      for (const [url, token, status, body] of cases) {
        const a = await s.get(url, { token });
        expect([a.status, a.body], url).to.deep.equal([status, body]);
      }
    });
  });

  describe('GET .../issues/:issue_iid/closed_by', () => {
    it('lists the open and merged merge requests whose closing statements name the issue', async () => {
      const p = await project();
      await writeFiles(s, p, 'master', { 'a.txt': 'a\n' }, { token: owner.token });
      for (const b of ['one', 'two', 'three']) await writeFiles(s, p, b, { [`${b}.txt`]: b }, { token: owner.token, start: 'master' });
      const issue = await newIssue(p.id, { title: 'Bug' });
      const closes = await openMergeRequest(s, p.id, { source_branch: 'one', target_branch: 'master', title: 'Fix', description: `Closes #${issue.iid}` }, dev.token);
      await openMergeRequest(s, p.id, { source_branch: 'two', target_branch: 'master', title: 'Other', description: 'Fixes #999' }, dev.token);
      const closed = await openMergeRequest(s, p.id, { source_branch: 'three', target_branch: 'master', title: `Fixes #${issue.iid}` }, dev.token);
      expect((await s.put(`/projects/${p.id}/merge_requests/${closed.iid}`, { token: dev.token, json: { state_event: 'close' } })).status).to.equal(200);
      const url = `/projects/${p.id}/issues/${issue.iid}/closed_by`;
      let r = await s.get(url, { token: reporter.token });
      expect(r.status).to.equal(200);
      expectSchema(r.body, 'public_api/v4/merge_requests.json');
      expect(r.body.map((m: any) => m.iid)).to.deep.equal([closes.iid]);
      expect((await s.put(`/projects/${p.id}/merge_requests/${closes.iid}/merge`, { token: owner.token })).status).to.equal(200);
      r = await s.get(url, { token: reporter.token });
      expect(r.body.map((m: any) => [m.iid, m.state])).to.deep.equal([[closes.iid, 'merged']]);
      // A guest of a private project reads the issue but not its merge requests.
      r = await s.get(url, { token: guest.token });
      expect([r.status, r.body]).to.deep.equal([200, []]);
    });
  });

  describe('GET .../issues/:issue_iid/user_agent_detail', () => {
    it('shows admins the user agent and address an issue was created from', async () => {
      const p = await project();
      const issue = await newIssue(p.id, { title: 'From a client' }, reporter.token, { 'User-Agent': 'python-gitlab/3.12.0' });
      const url = `/projects/${p.id}/issues/${issue.iid}/user_agent_detail`;
      const r = await s.get(url, { token: admin.token });
      expect([r.status, r.body]).to.deep.equal([200, { user_agent: 'python-gitlab/3.12.0', ip_address: '127.0.0.1', akismet_submitted: false }]);
      const cases: [string, string | null, number, unknown][] = [
        [url, owner.token, 403, { message: '403 Forbidden' }],
        [url, null, 401, { message: '401 Unauthorized' }],
        [`/projects/${p.id}/issues/999/user_agent_detail`, admin.token, 404, { message: '404 Not found' }],
      ];
      for (const [u, token, status, body] of cases) {
        const a = await s.get(u, { token });
        expect([a.status, a.body], `${u} ${token}`).to.deep.equal([status, body]);
      }
    });
  });

  describe('POST .../issues/:issue_iid/move', () => {
    it('moves an issue with its notes, threads and awards; labels and milestone by title; closes the old one', async () => {
      const from = await project();
      const to = await project();
      for (const p of [from, to]) {
        expect((await s.post(`/projects/${p.id}/labels`, { token: owner.token, json: { name: 'bug', color: '#FF0000' } })).status).to.equal(201);
        expect((await s.post(`/projects/${p.id}/milestones`, { token: owner.token, json: { title: 'v1' } })).status).to.equal(201);
      }
      expect((await s.post(`/projects/${from.id}/labels`, { token: owner.token, json: { name: 'only-here', color: '#00FF00' } })).status).to.equal(201);
      const milestone = (await s.get(`/projects/${from.id}/milestones`, { token: owner.token })).body[0];
      const issue = await newIssue(
        from.id,
        { title: 'Moving', description: 'Body', labels: 'bug,only-here', milestone_id: milestone.id, assignee_ids: [dev.user.id], confidential: true },
        master.token,
      );
      const plain = (await s.post(`/projects/${from.id}/issues/${issue.iid}/notes`, { token: reporter.token, json: { body: 'plain' } })).body;
      const thread = (await s.post(`/projects/${from.id}/issues/${issue.iid}/discussions`, { token: reporter.token, json: { body: 'thread' } })).body;
      // (Confidential: the guest may not see it; the developer is its assignee.)
      expect((await s.post(`/projects/${from.id}/issues/${issue.iid}/discussions/${thread.id}/notes`, { token: dev.token, json: { body: 'reply' } })).status).to.equal(201);
      expect((await s.post(`/projects/${from.id}/issues/${issue.iid}/award_emoji`, { token: dev.token, json: { name: 'thumbsup' } })).status).to.equal(201);
      expect((await s.post(`/projects/${from.id}/issues/${issue.iid}/notes/${plain.id}/award_emoji`, { token: dev.token, json: { name: 'tada' } })).status).to.equal(201);
      await newIssue(to.id, { title: 'Already there' });

      const r = await s.post(`/projects/${from.id}/issues/${issue.iid}/move`, { token: master.token, json: { to_project_id: to.id } });
      expect(r.status, r.text).to.equal(201);
      const moved = r.body;
      expect(moved).to.include({ project_id: to.id, iid: 2, title: 'Moving', description: 'Body', state: 'opened', confidential: true, created_at: issue.created_at });
      expect(moved.labels).to.deep.equal(['bug']);
      expect(moved.milestone.title).to.equal('v1');
      expect(moved.milestone.project_id).to.equal(to.id);
      expect(moved.author.username).to.equal('master');
      expect(moved.assignees.map((a: any) => a.username)).to.deep.equal(['dev']);
      expect(moved.user_notes_count).to.equal(3);
      expect(moved.upvotes).to.equal(1);

      const movedUrl = `/projects/${to.id}/issues/${moved.iid}`;
      const threads = (await s.get(`${movedUrl}/discussions`, { token: reporter.token })).body;
      expect(threads.map((t: any) => [t.individual_note, t.notes.map((x: any) => x.body)])).to.deep.equal([
        [true, ['plain']],
        [false, ['thread', 'reply']],
        [true, [`moved from ${from.path}#${issue.iid}`]],
      ]);
      expect(threads[0].notes[0].created_at).to.equal(plain.created_at);
      const noteAwards = (await s.get(`${movedUrl}/notes/${threads[0].notes[0].id}/award_emoji`, { token: reporter.token })).body;
      expect(noteAwards.map((a: any) => a.name)).to.deep.equal(['tada']);

      const old = (await s.get(`/projects/${from.id}/issues/${issue.iid}`, { token: reporter.token })).body;
      expect(old.state).to.equal('closed');
      const oldNotes = (await s.get(`/projects/${from.id}/issues/${issue.iid}/notes`, { token: reporter.token })).body;
      expect(oldNotes[0]).to.include({ body: `moved to ${to.path}#${moved.iid}`, system: true });
      const events = (await s.get(`/projects/${to.id}/events`, { token: owner.token, query: { target_type: 'issue' } })).body;
      expect(events.map((e: any) => [e.action_name, e.target_iid])).to.deep.include(['opened', moved.iid]);
      // No user agent was recorded for the moved copy.
      const ua = await s.get(`${movedUrl}/user_agent_detail`, { token: admin.token });
      expect([ua.status, ua.body]).to.deep.equal([404, { message: '404 UserAgentDetail Not Found' }]);

      // Moved once: it cannot move again.
      const again = await s.post(`/projects/${from.id}/issues/${issue.iid}/move`, { token: master.token, json: { to_project_id: to.id } });
      expect([again.status, again.body]).to.deep.equal([400, { message: 'Cannot move issue due to insufficient permissions!' }]);
    });

    it("answers 10.8's refusals (and 404 for what the user may not see)", async () => {
      const from = await project();
      const to = await project();
      const hidden = await projectWithRoles(s, owner, {}, { name: `hidden${++n}`, visibility: 'private' });
      const issue = await newIssue(from.id, { title: 'Stay' });
      const url = `/projects/${from.id}/issues/${issue.iid}/move`;
      const cases: [string, Record<string, unknown>, string | null, number, unknown][] = [
        [url, { to_project_id: from.id }, master.token, 400, { message: 'Cannot move issue to project it originates from!' }],
        [url, { to_project_id: to.id }, guest.token, 400, { message: 'Cannot move issue due to insufficient permissions!' }],
        [url, { to_project_id: from.id }, guest.token, 400, { message: 'Cannot move issue due to insufficient permissions!' }],
        [url, { to_project_id: hidden.id }, master.token, 404, { message: '404 Project Not Found' }],
        [url, { to_project_id: 99999 }, master.token, 404, { message: '404 Project Not Found' }],
        [url, {}, master.token, 400, { error: 'to_project_id is missing' }],
        [url, { to_project_id: 'x' }, master.token, 400, { error: 'to_project_id is invalid' }],
        [`/projects/${from.id}/issues/999/move`, { to_project_id: to.id }, master.token, 404, { message: '404 Issue Not Found' }],
        [url, { to_project_id: to.id }, null, 401, { message: '401 Unauthorized' }],
        [url, { to_project_id: to.id }, stranger.token, 404, { message: '404 Project Not Found' }],
      ];
      for (const [u, json, token, status, body] of cases) {
        const r = await s.post(u, { token, json });
        expect([r.status, r.body], `${JSON.stringify(json)} ${token}`).to.deep.equal([status, body]);
      }
      expect((await s.get(`/projects/${from.id}/issues/${issue.iid}`, { token: reporter.token })).body.state).to.equal('opened');
      expect((await s.get(`/projects/${to.id}/issues`, { token: reporter.token })).body).to.deep.equal([]);
    });
  });

  describe('follow-up issues (merge_request_to_resolve_discussions_of)', () => {
    async function withDiscussions() {
      const p = await project();
      await writeFiles(s, p, 'master', { 'a.txt': 'a\n' }, { token: owner.token });
      await writeFiles(s, p, 'feature', { 'b.txt': 'b\n' }, { token: owner.token, start: 'master' });
      const mr = await openMergeRequest(s, p.id, { source_branch: 'feature', target_branch: 'master', title: 'Feature' }, dev.token);
      const url = `/projects/${p.id}/merge_requests/${mr.iid}/discussions`;
      await s.post(`/projects/${p.id}/merge_requests/${mr.iid}/notes`, { token: reporter.token, json: { body: 'a plain note' } });
      const first = (await s.post(url, { token: reporter.token, json: { body: 'Please fix\nthis' } })).body;
      const second = (await s.post(url, { token: master.token, json: { body: 'Second' } })).body;
      const reply = (await s.post(`${url}/${second.id}/notes`, { token: reporter.token, json: { body: 'reply' } })).body;
      return { p, mr, url, first, second, reply };
    }

    it('lists the unresolved discussions in the description and resolves them with the issue', async () => {
      const { p, mr, url, first, second } = await withDiscussions();
      const issue = await newIssue(p.id, { title: 'Follow up', merge_request_to_resolve_discussions_of: mr.iid }, master.token);
      const web = `${s.url}/${p.full}/merge_requests/${mr.iid}`;
      expect(issue.description).to.equal(
        [
          `The following discussions from !${mr.iid} should be addressed:`,
          `- [ ] @reporter started a [discussion](${web}#note_${first.notes[0].id}): `,
          '    > Please fix\n    > this',
          `- [ ] @master started a [discussion](${web}#note_${second.notes[0].id}):  (+1 comment)`,
          '    > Second',
        ].join('\n\n'),
      );
      const threads = (await s.get(url, { token: reporter.token })).body;
      const byId = new Map(threads.map((t: any) => [t.id, t]));
      for (const d of [first, second]) {
        const t: any = byId.get(d.id);
        expect(t.notes.filter((x: any) => x.resolvable).every((x: any) => x.resolved && x.resolved_by.username === 'master')).to.equal(true);
        const last = t.notes[t.notes.length - 1];
        expect(last).to.include({ system: true, body: `created #${issue.iid} to continue this discussion` });
      }
      expect(threads.some((t: any) => t.notes[0].body === 'resolved all discussions')).to.equal(true);
    });

    it('takes over only the named discussion, and resolves nothing for one who may not resolve', async () => {
      const { p, mr, url, first, second } = await withDiscussions();
      const issue = await newIssue(p.id, { title: 'One', merge_request_to_resolve_discussions_of: mr.iid, discussion_to_resolve: second.id }, master.token);
      expect(issue.description.split('\n\n')[0]).to.equal(`The following discussion from !${mr.iid} should be addressed:`);
      let threads = (await s.get(url, { token: reporter.token })).body;
      expect(threads.find((t: any) => t.id === first.id).notes[0].resolved).to.equal(false);
      expect(threads.find((t: any) => t.id === second.id).notes[0].resolved).to.equal(true);
      // A reporter (not the author, no developer) gets the description, and nothing is resolved.
      const byReporter = await newIssue(p.id, { title: 'Two', merge_request_to_resolve_discussions_of: mr.iid }, reporter.token);
      expect(byReporter.description).to.contain(`#note_${first.notes[0].id}`);
      threads = (await s.get(url, { token: reporter.token })).body;
      expect(threads.find((t: any) => t.id === first.id).notes[0].resolved).to.equal(false);
    });
  });
});
