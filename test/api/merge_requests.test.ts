// Merge requests core (GitLab 10.8 lib/api/merge_requests.rb, MergeRequests::CreateService /
// UpdateService, MergeRequestPolicy): create with every field and each error in GitLab's
// words, merge requests from forks, the single entity's shape and diff refs (checked against
// git), update and state events, delete with everything that hangs off it.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, createBranch, openMergeRequest, repoDir } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';
import { git } from '../helpers/bare_git.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const NOT_FOUND = { message: '404 Not found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };

const SINGLE_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'target_branch',
  'source_branch',
  'upvotes',
  'downvotes',
  'author',
  'assignee',
  'source_project_id',
  'target_project_id',
  'labels',
  'work_in_progress',
  'milestone',
  'merge_when_pipeline_succeeds',
  'merge_status',
  'sha',
  'merge_commit_sha',
  'user_notes_count',
  'discussion_locked',
  'should_remove_source_branch',
  'force_remove_source_branch',
  'web_url',
  'time_stats',
  'subscribed',
  'changes_count',
  'merged_by',
  'merged_at',
  'closed_by',
  'closed_at',
  'latest_build_started_at',
  'latest_build_finished_at',
  'first_deployed_to_production_at',
  'pipeline',
  'diff_refs',
];

const UPDATE_AT_LEAST_ONE =
  'assignee_id, description, labels, milestone_id, remove_source_branch, state_event, target_branch, title, discussion_locked are missing, at least one parameter must be provided';

type Project = { id: number; fullPath: string; dir: string };

describe('Merge requests', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  /** A project with master (README.md) and branch `feature` (one commit: a.txt), members cast. */
  async function project(visibility = 'private', extra: Record<string, unknown> = {}): Promise<Project> {
    const r = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `mr${++counter}`, visibility, ...extra });
    const p = { id: r.id as number, fullPath: r.path_with_namespace as string, dir: repoDir(s, r.path_with_namespace) };
    await commit(p, 'master', [{ action: 'create', file_path: 'README.md', content: 'hello\n' }], 'Initial');
    await branch(p, 'feature', 'master');
    await commit(p, 'feature', [{ action: 'create', file_path: 'a.txt', content: 'a\n' }], 'Add a');
    return p;
  }

  const commit = (p: { id: number }, br: string, actions: Record<string, unknown>[], message = 'change', token = owner.token) =>
    commitFiles(s, p.id, br, actions, { message, token });

  const branch = (p: { id: number }, name: string, ref: string) => createBranch(s, p.id, name, ref, owner.token);

  const create = (p: { id: number }, body: Record<string, unknown>, token = owner.token) =>
    openMergeRequest(s, p.id, { title: 'MR', source_branch: 'feature', target_branch: 'master', ...body }, token);

  describe('create', () => {
    it('creates with every field and answers the full MergeRequest entity, sha and diff refs from git', async () => {
      const p = await project();
      const ms = await s.post(`/projects/${p.id}/milestones`, { token: owner.token, json: { title: 'v1' } });
      const mr = await create(p, {
        title: 'Add a',
        description: 'Adds **a**',
        assignee_id: dev.user.id,
        milestone_id: ms.body.id,
        labels: 'bug, feature ,bug',
        remove_source_branch: true,
        allow_maintainer_to_push: true,
      });
      expect(Object.keys(mr)).to.deep.equal(SINGLE_KEYS);
      expect(mr).to.include({ iid: 1, project_id: p.id, source_project_id: p.id, target_project_id: p.id, title: 'Add a', description: 'Adds **a**' });
      expect(mr).to.include({ state: 'opened', source_branch: 'feature', target_branch: 'master', work_in_progress: false });
      expect(mr.labels).to.deep.equal(['bug', 'feature']);
      expect(mr.milestone.id).to.equal(ms.body.id);
      expect(mr.assignee.id).to.equal(dev.user.id);
      expect(mr.author.id).to.equal(owner.user.id);
      expect(mr.force_remove_source_branch).to.equal(true);
      expect(mr.should_remove_source_branch).to.equal(null);
      expect(mr).to.not.have.property('allow_maintainer_to_push'); // only for fork merge requests
      expect(mr.changes_count).to.equal('1');
      expect(mr.subscribed).to.equal(true); // the author takes part
      expect(mr).to.include({ upvotes: 0, downvotes: 0, user_notes_count: 0, merge_when_pipeline_succeeds: false, merge_commit_sha: null });
      expect(mr).to.include({ merged_by: null, merged_at: null, closed_by: null, closed_at: null, pipeline: null, discussion_locked: null });
      expect(mr.web_url).to.equal(`${s.url}/${p.fullPath}/merge_requests/1`);
      const head = git(p.dir, ['rev-parse', 'feature']).trim();
      const start = git(p.dir, ['rev-parse', 'master']).trim();
      expect(mr.sha).to.equal(head);
      expect(mr.diff_refs).to.deep.equal({ base_sha: git(p.dir, ['merge-base', 'master', 'feature']).trim(), head_sha: head, start_sha: start });
      expect(git(p.dir, ['rev-parse', 'refs/merge-requests/1/head']).trim()).to.equal(head);
      expect(mr.time_stats).to.deep.equal({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });

      const got = await s.get(`/projects/${p.id}/merge_requests/1`, { token: owner.token });
      expect(got.status).to.equal(200);
      expect(Object.keys(got.body)).to.deep.equal(SINGLE_KEYS);
      expect(got.body.id).to.equal(mr.id);
      expect(got.body.merge_status).to.equal('can_be_merged'); // the lazy check ran on read
      expectSchema([basicOf(got.body)], 'public_api/v4/merge_requests.json');

      const event = await s.db('events').where({ target_type: 'MergeRequest', target_id: mr.id }).first();
      expect(event).to.include({ action: 1, project_id: p.id, author_id: owner.user.id });
    });

    it('numbers iids per project and never reuses one', async () => {
      const p = await project();
      await branch(p, 'f2', 'feature');
      await commit(p, 'f2', [{ action: 'create', file_path: 'b.txt', content: 'b\n' }]);
      const one = await create(p, {});
      const two = await create(p, { source_branch: 'f2' });
      expect([one.iid, two.iid]).to.deep.equal([1, 2]);
      expect((await s.delete(`/projects/${p.id}/merge_requests/2`, { token: owner.token })).status).to.equal(204);
      const three = await create(p, { source_branch: 'f2' });
      expect(three.iid).to.equal(3);
    });

    it('answers each error as GitLab does', async () => {
      const p = await project();
      const post = (body: Record<string, unknown>, token = owner.token) => s.post(`/projects/${p.id}/merge_requests`, { token, json: body });
      const base = { title: 'T', source_branch: 'feature', target_branch: 'master' };
      let r = await post({ ...base, source_branch: 'master' });
      expect(r.status).to.equal(422);
      expect(r.body).to.deep.equal({ error: ['You can not use same project/branch for source and target'] });
      r = await post({ title: 'T', target_branch: 'master' });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ error: 'source_branch is missing' });
      r = await post({ source_branch: 'feature' });
      expect(r.body).to.deep.equal({ error: 'title is missing, target_branch is missing' });
      r = await post({ ...base, source_branch: 'nope', target_branch: 'gone' });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({
        message: { source_branch: ['Source branch "nope" does not exist'], target_branch: ['Target branch "gone" does not exist'] },
      });
      r = await post({ ...base, title: '  ' });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: { title: ["can't be blank"] } });
      await create(p, { title: 'First "one"' });
      r = await post({ ...base, title: 'Second' });
      expect(r.status).to.equal(409);
      expect(r.body).to.deep.equal({ message: ['Cannot Create: This merge request already exists: ["First \\"one\\""]'] });
      const rows = await s.db('merge_requests').where({ target_project_id: p.id }).count({ n: '*' }).first();
      expect(Number(rows?.n)).to.equal(1); // PostgreSQL counts are bigints: strings
    });

    it('checks permissions before parameters: 401, 404, 403 for reporters and guests', async () => {
      const p = await project();
      const url = `/projects/${p.id}/merge_requests`;
      expect((await s.post(url, { token: null, json: {} })).body).to.deep.equal(UNAUTHORIZED);
      const r404 = await s.post(url, { token: stranger.token, json: {} });
      expect([r404.status, r404.body]).to.deep.equal([404, PROJECT_NOT_FOUND]);
      for (const who of [reporter, guest]) {
        const r = await s.post(url, { token: who.token, json: {} });
        expect([r.status, r.body]).to.deep.equal([403, FORBIDDEN]);
      }
      const mr = await create(p, { title: 'by dev' }, dev.token);
      expect(mr.author.id).to.equal(dev.user.id);
    });

    it('drops assignee, milestone and labels a user may not set, and assignees who cannot read', async () => {
      const p = await project('public');
      const mine = await s.post('/projects', { token: stranger.token, json: { name: 'strangers', visibility: 'public' } });
      // A stranger forks, then proposes from the fork: guest abilities on the target.
      const fork = await s.post(`/projects/${p.id}/fork`, { token: stranger.token });
      expect(fork.status, fork.text).to.equal(201);
      expect(mine.status).to.equal(201);
      const ms = await s.post(`/projects/${p.id}/milestones`, { token: owner.token, json: { title: 'v9' } });
      const mr = await create({ id: fork.body.id }, { target_project_id: p.id, assignee_id: dev.user.id, milestone_id: ms.body.id, labels: 'x' }, stranger.token);
      expect(mr).to.include({ assignee: null, milestone: null, project_id: p.id, source_project_id: fork.body.id });
      expect(mr.labels).to.deep.equal([]);
      // A private project's guest may not read merge requests: dropped as assignee.
      const q = await project();
      const mr2 = await create(q, { assignee_id: guest.user.id });
      expect(mr2.assignee).to.equal(null);
    });
  });

  describe('forks', () => {
    it('opens a merge request from a fork: source head fetched into the target, diff against the target', async () => {
      const p = await project('internal');
      const fork = await s.post(`/projects/${p.id}/fork`, { token: dev.token });
      expect(fork.status, fork.text).to.equal(201);
      const f = { id: fork.body.id as number, dir: repoDir(s, fork.body.path_with_namespace) };
      await commit(f, 'feature', [{ action: 'create', file_path: 'fork.txt', content: 'from fork\n' }], 'Fork work', dev.token);
      // The target moves on after the fork.
      await commit(p, 'master', [{ action: 'create', file_path: 'later.txt', content: 'later\n' }], 'Later');
      const mr = await create(f, { target_project_id: p.id, allow_maintainer_to_push: true }, dev.token);
      expect(mr).to.include({ project_id: p.id, target_project_id: p.id, source_project_id: f.id, iid: 1 });
      expect(mr.allow_maintainer_to_push).to.equal(true);
      const head = git(f.dir, ['rev-parse', 'feature']).trim();
      expect(mr.sha).to.equal(head);
      expect(git(p.dir, ['rev-parse', 'refs/merge-requests/1/head']).trim()).to.equal(head);
      expect(mr.diff_refs.start_sha).to.equal(git(p.dir, ['rev-parse', 'master']).trim());
      expect(mr.diff_refs.base_sha).to.equal(git(p.dir, ['merge-base', 'master', 'refs/merge-requests/1/head']).trim());
      expect(mr.changes_count).to.equal('2');
      const changes = await s.get(`/projects/${p.id}/merge_requests/1/changes`, { token: dev.token });
      expect(changes.body.changes.map((c: { new_path: string }) => c.new_path)).to.deep.equal(['a.txt', 'fork.txt']);
      const list = await s.get(`/projects/${p.id}/merge_requests`, { token: dev.token });
      expect(list.body[0].allow_maintainer_to_push).to.equal(true);
      expectSchema(list.body, 'public_api/v4/merge_requests.json');
      // A commit on the fork's branch moves the merge request in the parent.
      const next = await commit(f, 'feature', [{ action: 'create', file_path: 'more.txt', content: 'more\n' }], 'More', dev.token);
      const moved = await s.get(`/projects/${p.id}/merge_requests/1`, { token: dev.token });
      expect(moved.body.sha).to.equal(next);
      expect(moved.body.changes_count).to.equal('3');
      expect(git(p.dir, ['rev-parse', 'refs/merge-requests/1/head']).trim()).to.equal(next);
      const commits = await s.get(`/projects/${p.id}/merge_requests/1/commits`, { token: dev.token });
      expect(commits.body.map((c: { id: string }) => c.id)).to.deep.equal(git(p.dir, ['log', '--format=%H', 'master..refs/merge-requests/1/head']).trim().split('\n'));
    });

    it('same branch names across a fork are fine; unrelated projects are 422; unreadable targets 403', async () => {
      const p = await project('internal');
      const fork = await s.post(`/projects/${p.id}/fork`, { token: dev.token });
      const f = { id: fork.body.id as number };
      const same = await create(f, { source_branch: 'master', target_branch: 'master', target_project_id: p.id }, dev.token);
      expect(same.source_branch).to.equal('master');
      const other = await s.post('/projects', { token: dev.token, json: { name: 'unrelated' } });
      await commit({ id: other.body.id }, 'master', [{ action: 'create', file_path: 'x', content: 'x' }], 'x', dev.token);
      let r = await s.post(`/projects/${f.id}/merge_requests`, {
        token: dev.token,
        json: { title: 't', source_branch: 'feature', target_branch: 'master', target_project_id: other.body.id },
      });
      expect([r.status, r.body]).to.deep.equal([422, { error: ['Source project is not a fork of the target project'] }]);
      const priv = await s.post('/projects', { token: owner.token, json: { name: 'hidden' } });
      r = await s.post(`/projects/${f.id}/merge_requests`, {
        token: dev.token,
        json: { title: 't', source_branch: 'feature', target_branch: 'master', target_project_id: priv.body.id },
      });
      expect([r.status, r.body]).to.deep.equal([403, FORBIDDEN]);
      r = await s.post(`/projects/${f.id}/merge_requests`, {
        token: dev.token,
        json: { title: 't', source_branch: 'feature', target_branch: 'master', target_project_id: 999999 },
      });
      expect([r.status, r.body]).to.deep.equal([404, NOT_FOUND]);
    });
  });

  describe('single', () => {
    it('404s for missing iids and for readers who may not see merge requests; anonymous reads public ones', async () => {
      const p = await project('private');
      await create(p, {});
      let r = await s.get(`/projects/${p.id}/merge_requests/99`, { token: owner.token });
      expect([r.status, r.body]).to.deep.equal([404, NOT_FOUND]);
      r = await s.get(`/projects/${p.id}/merge_requests/1`, { token: guest.token });
      expect([r.status, r.body]).to.deep.equal([404, NOT_FOUND]);
      r = await s.get(`/projects/${p.id}/merge_requests/1`, { token: reporter.token });
      expect(r.status).to.equal(200);
      expect(r.body.subscribed).to.equal(false);
      r = await s.get(`/projects/${p.id}/merge_requests/1`, { token: null });
      expect([r.status, r.body]).to.deep.equal([404, PROJECT_NOT_FOUND]);
      const pub = await project('public');
      await create(pub, {});
      r = await s.get(`/projects/${pub.id}/merge_requests/1`, { token: null });
      expect(r.status).to.equal(200);
      expect(r.body.subscribed).to.equal(false);
    });

    it('marks work in progress from the title and hides pipeline fields without jobs', async () => {
      const p = await project('private', { jobs_enabled: false });
      for (const [title, wip] of [
        ['WIP: x', true],
        ['[wip] y', true],
        ['wip z', true],
        ['WIPE', false],
        ['Fix WIP: no', false],
      ] as const) {
        const r = await s.put(`/projects/${p.id}/merge_requests/${(await ensureOne(p)).iid}`, { token: owner.token, json: { title } });
        expect(r.body.work_in_progress, title).to.equal(wip);
        expect(r.body).to.not.have.property('pipeline');
        expect(r.body).to.not.have.property('latest_build_started_at');
      }
    });
  });

  let ensured: Record<number, { iid: number }> = {};
  async function ensureOne(p: Project) {
    if (!ensured[p.id]) ensured[p.id] = await create(p, {});
    return ensured[p.id];
  }

  describe('update', () => {
    it('changes every field, closes and reopens (state "opened"), with events and closed_by', async () => {
      const p = await project();
      await branch(p, 'other', 'master');
      await commit(p, 'other', [{ action: 'create', file_path: 'o.txt', content: 'o\n' }]);
      const ms = await s.post(`/projects/${p.id}/milestones`, { token: owner.token, json: { title: 'm' } });
      const mr = await create(p, { labels: 'a' });
      const url = `/projects/${p.id}/merge_requests/${mr.iid}`;
      let r = await s.put(url, {
        token: dev.token,
        json: { title: 'New', description: 'D', assignee_id: reporter.user.id, milestone_id: ms.body.id, labels: 'b,c', discussion_locked: true, remove_source_branch: true },
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ title: 'New', description: 'D', discussion_locked: true, force_remove_source_branch: true });
      expect(r.body.assignee.id).to.equal(reporter.user.id);
      expect(r.body.milestone.id).to.equal(ms.body.id);
      expect(r.body.labels).to.deep.equal(['b', 'c']);
      r = await s.put(url, { token: dev.token, json: { assignee_id: 0, milestone_id: 0, labels: '' } });
      expect(r.body).to.include({ assignee: null, milestone: null });
      expect(r.body.labels).to.deep.equal([]);
      r = await s.put(url, { token: dev.token, json: { state_event: 'close' } });
      expect(r.body.state).to.equal('closed');
      expect(r.body.closed_by.id).to.equal(dev.user.id);
      expect(r.body.closed_at).to.be.a('string');
      r = await s.put(url, { token: dev.token, json: { state_event: 'reopen' } });
      expect(r.body).to.include({ state: 'opened', closed_at: null, closed_by: null });
      const actions = (await s.db('events').where({ target_type: 'MergeRequest', target_id: mr.id }).orderBy('id')).map((e: { action: number }) => e.action);
      expect(actions).to.deep.equal([1, 3, 4]);
      // A new target branch recomputes the diff.
      const before = r.body.diff_refs;
      r = await s.put(url, { token: dev.token, json: { target_branch: 'other' } });
      expect(r.body.target_branch).to.equal('other');
      expect(r.body.diff_refs.start_sha).to.equal(git(p.dir, ['rev-parse', 'other']).trim());
      expect(r.body.diff_refs.start_sha).to.not.equal(before.start_sha);
      expect(r.body.changes_count).to.equal('1');
    });

    it('validates: at least one field, no blank title or target branch, missing target branch, duplicates', async () => {
      const p = await project();
      const mr = await create(p, {});
      const url = `/projects/${p.id}/merge_requests/${mr.iid}`;
      let r = await s.put(url, { token: owner.token, json: {} });
      expect([r.status, r.body]).to.deep.equal([400, { error: UPDATE_AT_LEAST_ONE }]);
      r = await s.put(url, { token: owner.token, json: { title: '' } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'title is empty' }]);
      r = await s.put(url, { token: owner.token, json: { state_event: 'close', title: null } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'title is empty' }]);
      expect((await s.get(url, { token: owner.token })).body.state).to.equal('opened');
      r = await s.put(url, { token: owner.token, json: { target_branch: '' } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'target_branch is empty' }]);
      r = await s.put(url, { token: owner.token, json: { target_branch: 'feature' } });
      expect([r.status, r.body]).to.deep.equal([422, { error: ['You can not use same project/branch for source and target'] }]);
      r = await s.put(url, { token: owner.token, json: { target_branch: 'nowhere' } });
      expect([r.status, r.body]).to.deep.equal([400, { message: { target_branch: ['Target branch "nowhere" does not exist'] } }]);
      r = await s.put(url, { token: owner.token, json: { state_event: 'open' } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'state_event does not have a valid value' }]);
      // Closed, a second one may open; reopening the first then collides.
      await s.put(url, { token: owner.token, json: { state_event: 'close' } });
      await create(p, { title: 'Second' });
      r = await s.put(url, { token: owner.token, json: { state_event: 'reopen' } });
      expect([r.status, r.body]).to.deep.equal([409, { message: ['Cannot Create: This merge request already exists: ["Second"]'] }]);
    });

    it('lets developers, the author and the assignee update; others 403; admin fields only for developers', async () => {
      const p = await project('public');
      const mr = await create(p, { assignee_id: reporter.user.id });
      const url = `/projects/${p.id}/merge_requests/${mr.iid}`;
      let r = await s.put(url, { token: null, json: { title: 'x' } });
      expect([r.status, r.body]).to.deep.equal([401, UNAUTHORIZED]);
      for (const who of [guest, stranger]) {
        r = await s.put(url, { token: who.token, json: { title: 'x' } });
        expect([r.status, r.body]).to.deep.equal([403, FORBIDDEN]);
      }
      // The parameters are validated before the merge request is found and update_merge_request
      // asked of it (Grape's order): an empty edit is a 400 for them too, a missing one a 404.
      r = await s.put(url, { token: guest.token, json: {} });
      expect([r.status, r.body]).to.deep.equal([400, { error: UPDATE_AT_LEAST_ONE }]);
      r = await s.put(`/projects/${p.id}/merge_requests/999`, { token: guest.token, json: { title: 'x' } });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Not found' }]);
      r = await s.put(url, { token: reporter.token, json: { title: 'by assignee', labels: 'nope', assignee_id: 0 } });
      expect(r.status).to.equal(200);
      expect(r.body.title).to.equal('by assignee');
      expect(r.body.labels).to.deep.equal([]);
      expect(r.body.assignee.id).to.equal(reporter.user.id);
      r = await s.put(url, { token: 'nonsense', json: { title: 'x' } });
      expect(r.status).to.equal(401);
    });
  });

  describe('delete', () => {
    it('needs the owner (or an admin): masters 403, missing 404; takes labels, notes, awards, subscriptions along', async () => {
      const p = await project();
      const mr = await create(p, { labels: 'gone' });
      const url = `/projects/${p.id}/merge_requests/${mr.iid}`;
      const stamp = new Date().toISOString();
      const [noteId] = (
        await s
          .db('notes')
          .insert({ project_id: p.id, noteable_type: 'MergeRequest', noteable_id: mr.id, author_id: dev.user.id, body: 'hi', system: false, created_at: stamp, updated_at: stamp })
          .returning('id')
      ).map((r: { id: number } | number) => (typeof r === 'object' ? r.id : r));
      await s.db('award_emoji').insert([
        { awardable_type: 'MergeRequest', awardable_id: mr.id, user_id: dev.user.id, name: 'thumbsup', created_at: stamp, updated_at: stamp },
        { awardable_type: 'Note', awardable_id: noteId, user_id: dev.user.id, name: 'thumbsup', created_at: stamp, updated_at: stamp },
      ]);
      await s
        .db('subscriptions')
        .insert({ subscribable_type: 'MergeRequest', subscribable_id: mr.id, user_id: dev.user.id, project_id: p.id, subscribed: true, created_at: stamp, updated_at: stamp });
      let r = await s.delete(url, { token: master.token });
      expect([r.status, r.body]).to.deep.equal([403, FORBIDDEN]);
      r = await s.delete(`/projects/${p.id}/merge_requests/77`, { token: owner.token });
      expect([r.status, r.body]).to.deep.equal([404, NOT_FOUND]);
      r = await s.delete(url, { token: null });
      expect(r.status).to.equal(401);
      r = await s.delete(url, { token: owner.token });
      expect(r.status).to.equal(204);
      expect((await s.get(url, { token: owner.token })).status).to.equal(404);
      expect(await s.db('label_links').where({ target_type: 'merge_request', target_id: mr.id })).to.have.length(0);
      expect(await s.db('notes').where({ noteable_type: 'MergeRequest', noteable_id: mr.id })).to.have.length(0);
      expect(await s.db('award_emoji').whereIn('awardable_type', ['MergeRequest', 'Note']).whereIn('awardable_id', [mr.id, noteId])).to.have.length(0);
      expect(await s.db('subscriptions').where({ subscribable_type: 'MergeRequest', subscribable_id: mr.id })).to.have.length(0);
      expect(await s.db('events').where({ target_type: 'MergeRequest', target_id: mr.id })).to.have.length(0);
      expect(() => git(p.dir, ['rev-parse', '--verify', '-q', 'refs/merge-requests/1/head'])).to.throw();
      const q = await project();
      const mr2 = await create(q, {});
      expect((await s.delete(`/projects/${q.id}/merge_requests/${mr2.iid}`, { token: admin.token })).status).to.equal(204);
    });
  });
});

/** The list entity's keys out of a single entity (for the list schema). */
function basicOf(single: Record<string, unknown>): Record<string, unknown> {
  const drop = new Set([
    'subscribed',
    'changes_count',
    'merged_by',
    'merged_at',
    'closed_by',
    'closed_at',
    'latest_build_started_at',
    'latest_build_finished_at',
    'first_deployed_to_production_at',
    'pipeline',
    'diff_refs',
  ]);
  return Object.fromEntries(Object.entries(single).filter(([k]) => !drop.has(k)));
}
