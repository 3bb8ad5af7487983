// An archived project is read-only (GitLab 10.8's ProjectPolicy `rule { archived }`, one rule
// in src/policy/archived.ts): every write family answers as 10.8 does — 403 for what its
// abilities refuse (files, commits, branches, labels, milestones, issues, notes, time tracking,
// merge requests and their subscriptions), 401 for a merge (can_be_merged_by? fails), 404
// "Award Emoji Not Found" for an award — to the owner and to an admin alike, and leaves the
// repository and the rows untouched. What 10.8 leaves open stays open (protected-branch rules
// and the project's settings are admin_project; subscribing to issues and labels, to-dos and
// removing one's own award check no write ability), every read still answers 200, and
// unarchiving makes the project writable again.
import { expect } from 'chai';
import { useServerWithRoles } from '../helpers/roles.js';
import { commitFiles, createBranch, createProject, created, openMergeRequest } from '../helpers/projects.js';
import { git, gitOk, repoUrl, tempDir, commit } from '../transport/git_client.js';

const FORBIDDEN = { message: '403 Forbidden' };
const UNAUTHORIZED = { message: '401 Unauthorized' };
const AWARD_NOT_FOUND = { message: '404 Award Emoji Not Found' };

describe('Archived projects: read-only for everyone', () => {
  const { s, owner, admin } = useServerWithRoles();

  let id: number;
  let fullPath: string;
  let base: string;
  let issueIid: number;
  let noteId: number;
  let ownAwardId: number;
  let mrIid: number;
  let mrNoteId: number;
  let labelId: number;
  let milestoneId: number;
  const heads = () => s.get(`${base}/repository/branches`, { token: owner.token }).then((r) => r.body.map((b: any) => [b.name, b.commit.id]));
  let headsBefore: unknown;
  let countsBefore: unknown;

  /** Rows a refused write could have touched. */
  async function counts() {
    const n = async (table: string, where: Record<string, unknown>) => Number((await s.db(table).where(where).count({ n: '*' }).first())!.n);
    return {
      issues: await n('issues', { project_id: id }),
      mergeRequests: await n('merge_requests', { target_project_id: id }),
      notes: await n('notes', { project_id: id }),
      labels: await n('labels', { project_id: id }),
      milestones: await n('milestones', { project_id: id }),
      awards: await s
        .db('award_emoji')
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n)),
      issue: await s.db('issues').where({ project_id: id, iid: issueIid }).first('title', 'time_estimate', 'updated_at'),
      mr: await s.db('merge_requests').where({ target_project_id: id, iid: mrIid }).first('title', 'state', 'updated_at'),
      milestone: await s.db('milestones').where({ id: milestoneId }).first('title', 'state'),
      label: await s.db('labels').where({ id: labelId }).first('title', 'color'),
    };
  }

  before(async () => {
    const project = await createProject(s, owner.token, { name: 'frozen', visibility: 'private' });
    id = project.id;
    fullPath = project.path_with_namespace;
    base = `/projects/${id}`;
    await commitFiles(s, id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hello\n' }], { token: owner.token });
    await createBranch(s, id, 'feature', 'master', owner.token);
    await commitFiles(s, id, 'feature', [{ action: 'create', file_path: 'feature.txt', content: 'new\n' }], { token: owner.token });
    labelId = created(await s.post(`${base}/labels`, { token: owner.token, json: { name: 'bug', color: '#ff0000' } })).id;
    milestoneId = created(await s.post(`${base}/milestones`, { token: owner.token, json: { title: 'v1' } })).id;
    issueIid = created(await s.post(`${base}/issues`, { token: owner.token, json: { title: 'frozen issue', labels: 'bug' } })).iid;
    noteId = created(await s.post(`${base}/issues/${issueIid}/notes`, { token: owner.token, json: { body: 'a comment' } })).id;
    ownAwardId = created(await s.post(`${base}/issues/${issueIid}/award_emoji`, { token: owner.token, json: { name: 'smile' } })).id;
    mrIid = (await openMergeRequest(s, id, { source_branch: 'feature', target_branch: 'master', title: 'frozen mr' }, owner.token)).iid;
    mrNoteId = created(await s.post(`${base}/merge_requests/${mrIid}/notes`, { token: owner.token, json: { body: 'mr comment' } })).id;
    const archived = await s.post(`${base}/archive`, { token: owner.token });
    expect(archived.status, archived.text).to.equal(201);
    expect(archived.body.archived).to.equal(true);
    headsBefore = await heads();
    countsBefore = await counts();
  });

  async function expectRefused(token: string, method: string, path: string, json: Record<string, unknown> | undefined, status: number, body: unknown) {
    const r = await s.request(method, `${base}${path}`, { token, json });
    expect(r.status, `${method} ${path}: ${r.text}`).to.equal(status);
    expect(r.body, `${method} ${path}`).to.deep.equal(body);
  }

  for (const who of ['owner', 'admin'] as const) {
    describe(`as the ${who === 'owner' ? 'project owner' : 'instance admin'}`, () => {
      const token = () => (who === 'owner' ? owner : admin).token;
      const refused = (method: string, path: string, json?: Record<string, unknown>) => expectRefused(token(), method, path, json, 403, FORBIDDEN);

      it('refuses file writes and commits with 403 (push_code)', async () => {
        const file = { branch: 'master', commit_message: 'x', content: 'changed\n' };
        await refused('POST', '/repository/files/new.txt', file);
        await refused('PUT', '/repository/files/README.md', file);
        await refused('DELETE', '/repository/files/README.md', { branch: 'master', commit_message: 'x' });
        await refused('POST', '/repository/commits', { branch: 'master', commit_message: 'x', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] });
      });

      it('refuses creating and deleting branches with 403 (push_code)', async () => {
        await refused('POST', '/repository/branches', { branch: 'another', ref: 'master' });
        await refused('DELETE', '/repository/branches/feature');
        await refused('DELETE', '/repository/merged_branches');
      });

      it('refuses label and milestone writes with 403 (admin_label, admin_milestone)', async () => {
        await refused('POST', '/labels', { name: 'new', color: '#00ff00' });
        await refused('PUT', '/labels', { name: 'bug', color: '#00ff00' });
        await refused('DELETE', '/labels', { name: 'bug' });
        await refused('DELETE', `/labels/${labelId}`);
        await refused('POST', '/milestones', { title: 'v2' });
        await refused('PUT', `/milestones/${milestoneId}`, { state_event: 'close' });
        await refused('DELETE', `/milestones/${milestoneId}`);
      });

      it('refuses issue writes, comments and time tracking with 403', async () => {
        await refused('POST', '/issues', { title: 'new issue' });
        await refused('PUT', `/issues/${issueIid}`, { title: 'renamed' });
        await refused('DELETE', `/issues/${issueIid}`);
        await refused('POST', `/issues/${issueIid}/notes`, { body: 'more' });
        await refused('PUT', `/issues/${issueIid}/notes/${noteId}`, { body: 'edited' });
        await refused('DELETE', `/issues/${issueIid}/notes/${noteId}`);
        await refused('POST', `/issues/${issueIid}/time_estimate`, { duration: '1h' });
        await refused('POST', `/issues/${issueIid}/add_spent_time`, { duration: '1h' });
        await refused('POST', `/issues/${issueIid}/reset_spent_time`);
      });

      it('refuses merge request writes with 403 and merging with 401, as 10.8', async () => {
        await refused('POST', '/merge_requests', { source_branch: 'feature', target_branch: 'master', title: 'again' });
        await refused('PUT', `/merge_requests/${mrIid}`, { title: 'renamed' });
        await refused('DELETE', `/merge_requests/${mrIid}`);
        await refused('POST', `/merge_requests/${mrIid}/notes`, { body: 'more' });
        await refused('PUT', `/merge_requests/${mrIid}/notes/${mrNoteId}`, { body: 'edited' });
        await refused('POST', `/merge_requests/${mrIid}/subscribe`); // find_merge_request_with_access(:update_merge_request)
        await refused('POST', `/merge_requests/${mrIid}/time_estimate`, { duration: '1h' });
        // `unauthorized! unless merge_request.can_be_merged_by?(current_user)`
        await expectRefused(token(), 'PUT', `/merge_requests/${mrIid}/merge`, {}, 401, UNAUTHORIZED);
      });

      it('refuses awarding emoji with 404 Award Emoji Not Found, as 10.8', async () => {
        await expectRefused(token(), 'POST', `/issues/${issueIid}/award_emoji`, { name: 'tada' }, 404, AWARD_NOT_FOUND);
        await expectRefused(token(), 'POST', `/issues/${issueIid}/notes/${noteId}/award_emoji`, { name: 'tada' }, 404, AWARD_NOT_FOUND);
        await expectRefused(token(), 'POST', `/merge_requests/${mrIid}/award_emoji`, { name: 'tada' }, 404, AWARD_NOT_FOUND);
      });
    });
  }

  // Mocha runs a suite's own tests before its child suites: these follow the refusals above.
  describe('then', () => {
    it('left the repository and every row as they were', async () => {
      expect(await heads()).to.deep.equal(headsBefore);
      expect(await counts()).to.deep.equal(countsBefore);
    });

    it("refuses git push with GitLab's message", async () => {
      const dir = tempDir();
      await gitOk(['clone', '-q', repoUrl(s, fullPath, owner.token), dir]);
      await commit(dir, { 'pushed.txt': 'x\n' });
      const push = await git(['push', 'origin', 'HEAD:master'], { cwd: dir });
      expect(push.code).to.not.equal(0);
      expect(push.stderr).to.contain('You are not allowed to push code to this project.');
      expect(await heads()).to.deep.equal(headsBefore);
    });

    it('answers every read with 200', async () => {
      const reads = [
        '',
        '/repository/tree',
        '/repository/files/README.md?ref=master',
        '/repository/files/README.md/raw?ref=master',
        '/repository/branches',
        '/repository/branches/master',
        '/repository/commits',
        '/repository/tags',
        '/repository/compare?from=master&to=feature',
        '/labels',
        `/labels/${labelId}`,
        '/milestones',
        `/milestones/${milestoneId}`,
        `/milestones/${milestoneId}/issues`,
        `/milestones/${milestoneId}/merge_requests`,
        '/issues',
        `/issues/${issueIid}`,
        `/issues/${issueIid}/notes`,
        `/issues/${issueIid}/notes/${noteId}`,
        `/issues/${issueIid}/award_emoji`,
        `/issues/${issueIid}/time_stats`,
        '/merge_requests',
        `/merge_requests/${mrIid}`,
        `/merge_requests/${mrIid}/notes`,
        `/merge_requests/${mrIid}/changes`,
        '/protected_branches',
        '/members',
        '/events',
      ];
      for (const who of [owner, admin]) {
        for (const path of reads) {
          const [p, query] = path.split('?');
          const r = await s.get(`${base}${p}`, { token: who.token, query: Object.fromEntries(new URLSearchParams(query ?? '')) });
          expect(r.status, `GET ${path}: ${r.text}`).to.equal(200);
        }
      }
    });

    it("leaves open what 10.8 leaves open: protected-branch rules, settings, subscriptions to issues and labels, to-dos, removing one's own award", async () => {
      // admin_project is not among the abilities an archived project refuses.
      created(await s.post(`${base}/protected_branches`, { token: owner.token, json: { name: 'release-*' } }));
      expect((await s.delete(`${base}/protected_branches/release-*`, { token: owner.token })).status).to.equal(204);
      expect((await s.put(`${base}/repository/branches/feature/protect`, { token: admin.token })).status).to.equal(200);
      const settings = await s.put(base, { token: owner.token, json: { description: 'kept for the record' } });
      expect(settings.status, settings.text).to.equal(200);
      // Subscriptions to issues and labels and to-dos ask only read access.
      created(await s.post(`${base}/issues/${issueIid}/subscribe`, { token: admin.token }));
      created(await s.post(`${base}/labels/${labelId}/subscribe`, { token: admin.token }));
      created(await s.post(`${base}/issues/${issueIid}/todo`, { token: admin.token }));
      // Removing an award asks only that it is one's own.
      expect((await s.delete(`${base}/issues/${issueIid}/award_emoji/${ownAwardId}`, { token: owner.token })).status).to.equal(204);
    });

    it('is writable again once unarchived', async () => {
      created(await s.post(`${base}/unarchive`, { token: owner.token }));
      created(await s.post(`${base}/labels`, { token: owner.token, json: { name: 'thawed', color: '#00ff00' } }));
      created(await s.post(`${base}/repository/files/thawed.txt`, { token: admin.token, json: { branch: 'master', commit_message: 'thaw', content: 'x' } }));
      const merged = await s.put(`${base}/merge_requests/${mrIid}/merge`, { token: owner.token });
      expect(merged.status, merged.text).to.equal(200);
    });
  });
});
