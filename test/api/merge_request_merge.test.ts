// Merging merge requests (PUT .../merge, POST .../cancel_merge_when_pipeline_succeeds,
// GET .../closes_issues) on real branches made with the files API and with `git push`; the
// resulting history is checked with the real `git` on the bare repository.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { addRoleMembers, projectWithRoles, type Account } from '../helpers/roles.js';
import { openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { git, head } from '../helpers/bare_git.js';
import { commit as workCommit, gitOk, repoUrl, tempDir } from '../transport/git_client.js';

interface Project {
  id: number;
  path: string;
  dir: string;
}

describe('Merge request merge API', function () {
  this.timeout(60000);
  let s: TestServer;
  let owner: Account;
  let dev: Account;
  let reporter: Account;
  const projects: number[] = [];

  before(async () => {
    s = await bootServer();
    owner = await s.createUser('mo');
    dev = await s.createUser('devon');
    reporter = await s.createUser('rita');
  });
  after(async () => {
    await s.close();
  });

  let counter = 0;
  /** A project of `mo` with README.md on master, devon a developer and rita a reporter. */
  async function project(settings: Record<string, unknown> = {}): Promise<Project> {
    const r = await projectWithRoles(s, owner, { dev, reporter }, { name: `m${++counter}`, ...settings });
    projects.push(r.id);
    const p = { id: r.id, path: r.path_with_namespace, dir: repoDir(s, r.path_with_namespace) };
    await files(p, 'master', { 'README.md': 'hello\n', 'shared.txt': 'one\ntwo\nthree\n' }, 'Initial');
    return p;
  }

  /** One commit of `files` on `branch` (created from `start` when given) through the API. */
  const files = (p: Project, branch: string, content: Record<string, string>, message = 'change', start?: string, token = owner.token) =>
    writeFiles(s, p, branch, content, { message, start, token });

  const openMr = (p: Project, source: string, target = 'master', extra: Record<string, unknown> = {}, token = owner.token) =>
    openMergeRequest(s, p.id, { source_branch: source, target_branch: target, title: `Merge ${source}`, ...extra }, token);

  const merge = (p: Project, iid: number, json: Record<string, unknown> = {}, token = owner.token) => s.put(`/projects/${p.id}/merge_requests/${iid}/merge`, { token, json });

  /** feature: one commit on top of master's first commit; master moved on meanwhile (no conflict). */
  async function diverged(p: Project): Promise<{ feature: string; master: string }> {
    const feature = await files(p, 'feature', { 'feature.txt': 'feature\n' }, 'Add feature', 'master');
    const master = await files(p, 'master', { 'other.txt': 'other\n' }, 'Move master');
    return { feature, master };
  }

  describe("merge_method 'merge'", () => {
    it('writes a merge commit of the target and source heads with GitLab default message, author and state', async () => {
      const p = await project();
      const { feature, master } = await diverged(p);
      const mr = await openMr(p, 'feature', 'master', { description: 'Some text' });
      expect(mr.merge_status).to.equal('can_be_merged');

      const r = await merge(p, mr.iid);
      expect(r.status, r.text).to.equal(200);
      expect(r.body.state).to.equal('merged');
      expect(r.body.merged_by.username).to.equal('mo');
      expect(r.body.merged_at).to.be.a('string');
      const tip = head(p.dir, 'master');
      expect(r.body.merge_commit_sha).to.equal(tip);
      expect(git(p.dir, ['rev-list', '--parents', '-n', '1', tip]).trim()).to.equal(`${tip} ${master} ${feature}`);
      const message = git(p.dir, ['cat-file', 'commit', tip]).split('\n\n').slice(1).join('\n\n');
      expect(message).to.equal(`Merge branch 'feature' into 'master'\n\nMerge feature\n\nSee merge request ${p.path}!${mr.iid}`);
      expect(git(p.dir, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', tip]).trim()).to.equal('Mo <mo@example.com>|Mo <mo@example.com>');
      // The merged tree holds both sides, as `git merge` would.
      expect(git(p.dir, ['ls-tree', '--name-only', tip]).trim().split('\n')).to.deep.equal(['README.md', 'feature.txt', 'other.txt', 'shared.txt']);
      // The source branch stays unless asked.
      expect(head(p.dir, 'feature')).to.equal(feature);

      const events = await s.db('events').where({ target_type: 'MergeRequest', target_id: mr.id, action: 7 });
      expect(events).to.have.length(1);
      const again = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token });
      expect(again.body.state).to.equal('merged');
      expect(again.body.merge_commit_sha).to.equal(tip);

      // A merged merge request is no longer mergeable.
      const twice = await merge(p, mr.iid);
      expect(twice.status).to.equal(405);
      expect(twice.body).to.deep.equal({ message: '405 Method Not Allowed' });
    });

    it('takes merge_commit_message and a matching sha; a fast-forwardable pair still gets a merge commit', async () => {
      const p = await project();
      const base = head(p.dir, 'master');
      const feature = await files(p, 'topic', { 'a.txt': 'a\n' }, 'Topic', 'master');
      const mr = await openMr(p, 'topic');
      const r = await merge(p, mr.iid, { merge_commit_message: 'Custom\r\n\r\nmessage', sha: feature });
      expect(r.status, r.text).to.equal(200);
      const tip = head(p.dir, 'master');
      expect(git(p.dir, ['rev-list', '--parents', '-n', '1', tip]).trim()).to.equal(`${tip} ${base} ${feature}`);
      expect(git(p.dir, ['log', '-1', '--format=%B', tip])).to.equal('Custom\n\nmessage\n');
    });

    it('merges branches pushed with git, and a clone sees the merge', async () => {
      const p = await project();
      const work = path.join(tempDir(), 'clone');
      await gitOk(['clone', '-q', repoUrl(s, p.path, owner.token), work]);
      await gitOk(['checkout', '-q', '-b', 'pushed'], { cwd: work });
      const c1 = await workCommit(work, { 'pushed.txt': 'one\n' }, 'Pushed one');
      const c2 = await workCommit(work, { 'pushed.txt': 'one\ntwo\n' }, 'Pushed two');
      await gitOk(['push', '-q', repoUrl(s, p.path, owner.token), 'pushed'], { cwd: work });
      const masterBefore = await files(p, 'master', { 'shared.txt': 'one\ntwo\nthree\nfour\n' }, 'Master edit');
      const mr = await openMr(p, 'pushed');
      expect(mr.sha).to.equal(c2);
      const r = await merge(p, mr.iid, { should_remove_source_branch: true });
      expect(r.status, r.text).to.equal(200);

      await gitOk(['fetch', '-q', '--prune', repoUrl(s, p.path, owner.token), '+refs/heads/*:refs/remotes/origin/*'], { cwd: work });
      const log = (await gitOk(['log', '--format=%H %P', 'origin/master'], { cwd: work })).trim().split('\n');
      expect(log[0].split(' ').slice(1)).to.deep.equal([masterBefore, c2]);
      expect(log.map((l) => l.split(' ')[0])).to.include.members([c1, c2]);
      expect(await gitOk(['show', 'origin/master:shared.txt'], { cwd: work })).to.equal('one\ntwo\nthree\nfour\n');
      expect(await gitOk(['show', 'origin/master:pushed.txt'], { cwd: work })).to.equal('one\ntwo\n');
      // should_remove_source_branch: the branch is gone.
      expect((await gitOk(['branch', '-r'], { cwd: work })).includes('origin/pushed')).to.equal(false);
      expect((await s.get(`/projects/${p.id}/repository/branches/pushed`, { token: owner.token })).status).to.equal(404);
    });
    it('merges a merge request from a fork: the fork head lands in the upstream target', async () => {
      const p = await project();
      const fork = await s.post(`/projects/${p.id}/fork`, { token: dev.token });
      expect(fork.status, fork.text).to.equal(201);
      projects.push(fork.body.id);
      const forkProject = { id: fork.body.id, path: fork.body.path_with_namespace, dir: repoDir(s, fork.body.path_with_namespace) };
      const tip = await files(forkProject, 'contrib', { 'contrib.txt': 'from a fork\n' }, 'Contribution', 'master', dev.token);
      const before = await files(p, 'master', { 'upstream.txt': 'upstream\n' }, 'Upstream moves');
      const created = await openMergeRequest(s, forkProject.id, { source_branch: 'contrib', target_branch: 'master', target_project_id: p.id, title: 'From the fork' }, dev.token);
      expect(created.merge_status).to.equal('can_be_merged');
      const r = await merge(p, created.iid, { should_remove_source_branch: true });
      expect(r.status, r.text).to.equal(200);
      const merged = head(p.dir, 'master');
      expect(git(p.dir, ['rev-list', '--parents', '-n', '1', merged]).trim()).to.equal(`${merged} ${before} ${tip}`);
      expect(git(p.dir, ['show', `${merged}:contrib.txt`])).to.equal('from a fork\n');
      // mo may not push to devon's fork: the source branch stays, quietly.
      expect(head(forkProject.dir, 'contrib')).to.equal(tip);
    });

    it('two merges of one merge request at once: one merges, the other is refused, one merge commit', async () => {
      const p = await project();
      const { master } = await diverged(p);
      const mr = await openMr(p, 'feature');
      const [a, b] = await Promise.all([merge(p, mr.iid), merge(p, mr.iid)]);
      expect([a.status, b.status].sort()).to.deep.equal([200, 405]);
      const tip = head(p.dir, 'master');
      expect(git(p.dir, ['rev-parse', `${tip}^1`]).trim()).to.equal(master);
      expect((await s.db('events').where({ target_type: 'MergeRequest', target_id: mr.id, action: 7 })).length).to.equal(1);
    });
  });

  describe("merge_method 'rebase_merge'", () => {
    it('refuses a source that is behind the target (406) and merges with a commit when fast-forward is possible', async () => {
      const p = await project({ merge_method: 'rebase_merge' });
      await diverged(p);
      const mr = await openMr(p, 'feature');
      const before = head(p.dir, 'master');
      const r = await merge(p, mr.iid);
      expect(r.status).to.equal(406);
      expect(r.body).to.deep.equal({ message: 'Branch cannot be merged' });
      expect(head(p.dir, 'master')).to.equal(before);

      const base = head(p.dir, 'master');
      const ahead = await files(p, 'ahead', { 'b.txt': 'b\n' }, 'Ahead', 'master');
      const mr2 = await openMr(p, 'ahead');
      const ok = await merge(p, mr2.iid);
      expect(ok.status, ok.text).to.equal(200);
      const tip = head(p.dir, 'master');
      expect(ok.body.merge_commit_sha).to.equal(tip);
      expect(git(p.dir, ['rev-list', '--parents', '-n', '1', tip]).trim()).to.equal(`${tip} ${base} ${ahead}`);
    });
  });

  describe("merge_method 'ff'", () => {
    it('moves the target to the source head without a merge commit, and refuses when it cannot fast-forward', async () => {
      const p = await project({ merge_method: 'ff' });
      await diverged(p);
      const mr = await openMr(p, 'feature');
      const r = await merge(p, mr.iid);
      expect(r.status).to.equal(406);
      expect(r.body).to.deep.equal({ message: 'Branch cannot be merged' });

      const ahead = await files(p, 'ahead', { 'b.txt': 'b\n' }, 'Ahead', 'master');
      const count = git(p.dir, ['rev-list', '--all', '--count']).trim();
      const mr2 = await openMr(p, 'ahead');
      const ok = await merge(p, mr2.iid);
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.state).to.equal('merged');
      expect(ok.body.merge_commit_sha).to.equal(null);
      expect(head(p.dir, 'master')).to.equal(ahead);
      expect(git(p.dir, ['rev-list', '--all', '--count']).trim()).to.equal(count); // no new commit
    });
  });

  describe('errors', () => {
    it('406 on a real conflict, with merge_status cannot_be_merged, and nothing moves', async () => {
      const p = await project();
      await files(p, 'clash', { 'shared.txt': 'one\nTWO (branch)\nthree\n' }, 'Branch edit', 'master');
      await files(p, 'master', { 'shared.txt': 'one\nTWO (master)\nthree\n' }, 'Master edit');
      const before = git(p.dir, ['for-each-ref', 'refs/heads']);
      const mr = await openMr(p, 'clash');
      const r = await merge(p, mr.iid);
      expect(r.status).to.equal(406);
      expect(r.body).to.deep.equal({ message: 'Branch cannot be merged' });
      expect(git(p.dir, ['for-each-ref', 'refs/heads'])).to.equal(before);
      const shown = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token });
      expect(shown.body.merge_status).to.equal('cannot_be_merged');
      expect(shown.body.state).to.equal('opened');
    });

    it('405 when closed, WIP or without commits of its own', async () => {
      const p = await project();
      await files(p, 'closed', { 'c.txt': 'c\n' }, 'C', 'master');
      const closed = await openMr(p, 'closed');
      expect((await s.put(`/projects/${p.id}/merge_requests/${closed.iid}`, { token: owner.token, json: { state_event: 'close' } })).status).to.equal(200);
      const wips = [];
      for (const [i, title] of ['WIP: later', '[WIP] later', 'wip later'].entries()) {
        await files(p, `wip${i}`, { 'w.txt': title }, 'W', 'master');
        wips.push(await openMr(p, `wip${i}`, 'master', { title }));
      }
      const [wip, wip2, wip3] = wips;
      await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'same', ref: 'master' } });
      const empty = await openMr(p, 'same');
      for (const iid of [closed.iid, wip.iid, wip2.iid, wip3.iid, empty.iid]) {
        const r = await merge(p, iid);
        expect(r.status, `!${iid}`).to.equal(405);
        expect(r.body).to.deep.equal({ message: '405 Method Not Allowed' });
      }
    });

    it('409 when sha is not the source head, naming the head', async () => {
      const p = await project();
      const feature = await files(p, 'f', { 'f.txt': 'f\n' }, 'F', 'master');
      const mr = await openMr(p, 'f');
      const r = await merge(p, mr.iid, { sha: 'a'.repeat(40) });
      expect(r.status).to.equal(409);
      expect(r.body).to.deep.equal({ message: `SHA does not match HEAD of source branch: ${feature}` });
    });

    it('401 for users who may not push or merge into the target branch; 404 for an unknown iid', async () => {
      const p = await project();
      await files(p, 'f', { 'f.txt': 'f\n' }, 'F', 'master');
      const mr = await openMr(p, 'f');
      // master is protected by default (masters push and merge): a developer may not merge into it.
      for (const token of [reporter.token, dev.token]) {
        const r = await merge(p, mr.iid, {}, token);
        expect(r.status).to.equal(401);
        expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
      }
      const anon = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}/merge`, { token: '' });
      expect(anon.status).to.equal(401);
      const missing = await merge(p, 999);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });

      // Developers may merge into an unprotected branch, and into a protected one that lets them merge.
      await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'devel', ref: 'master' } });
      await files(p, 'g', { 'g.txt': 'g\n' }, 'G', 'master');
      const intoDevel = await openMr(p, 'g', 'devel');
      const ok = await merge(p, intoDevel.iid, {}, dev.token);
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.merged_by.username).to.equal('devon');

      const prot = await s.post(`/projects/${p.id}/protected_branches`, { token: owner.token, json: { name: 'rel*', push_access_level: 40, merge_access_level: 30 } });
      expect(prot.status, prot.text).to.equal(201);
      await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'release', ref: 'master' } });
      await files(p, 'h', { 'h.txt': 'h\n' }, 'H', 'master');
      const intoRelease = await openMr(p, 'h', 'release');
      const ok2 = await merge(p, intoRelease.iid, {}, dev.token);
      expect(ok2.status, ok2.text).to.equal(200);
    });
  });

  describe('source branch removal', () => {
    it('honours remove_source_branch given at creation, but never removes a protected branch', async () => {
      const p = await project();
      await files(p, 'gone', { 'g.txt': 'g\n' }, 'G', 'master');
      const mr = await openMr(p, 'gone', 'master', { remove_source_branch: true });
      expect(mr.force_remove_source_branch).to.equal(true);
      expect((await merge(p, mr.iid)).status).to.equal(200);
      expect(git(p.dir, ['for-each-ref', 'refs/heads/gone'])).to.equal('');

      await s.post(`/projects/${p.id}/protected_branches`, { token: owner.token, json: { name: 'keep' } });
      await files(p, 'keep', { 'k.txt': 'k\n' }, 'K', 'master');
      const kept = await openMr(p, 'keep');
      expect((await merge(p, kept.iid, { should_remove_source_branch: true })).status).to.equal(200);
      expect(git(p.dir, ['for-each-ref', 'refs/heads/keep'])).to.not.equal('');
    });
  });

  describe('merge when pipeline succeeds', () => {
    it('merges at once without a pipeline, also when the project requires a successful pipeline', async () => {
      const p = await project({ only_allow_merge_if_pipeline_succeeds: true });
      await files(p, 'f', { 'f.txt': 'f\n' }, 'F', 'master');
      const mr = await openMr(p, 'f');
      const r = await merge(p, mr.iid, { merge_when_pipeline_succeeds: true });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.state).to.equal('merged');
      expect(r.body.merge_when_pipeline_succeeds).to.equal(false);
    });

    it('cancel answers the service result with 201: an error when not set, success when set; 401 for others', async () => {
      const p = await project();
      await files(p, 'f', { 'f.txt': 'f\n' }, 'F', 'master');
      const mr = await openMr(p, 'f');
      const url = `/projects/${p.id}/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`;
      const notSet = await s.post(url, { token: owner.token });
      expect(notSet.status).to.equal(201);
      expect(notSet.body).to.deep.equal({ message: "Can't cancel the automatic merge", status: 'error', http_status: 406 });

      await s.db('merge_requests').where({ id: mr.id }).update({ merge_when_pipeline_succeeds: true, merge_user_id: owner.user.id, should_remove_source_branch: true });
      const denied = await s.post(url, { token: reporter.token });
      expect(denied.status).to.equal(401);
      expect(denied.body).to.deep.equal({ message: '401 Unauthorized' });
      const ok = await s.post(url, { token: owner.token });
      expect(ok.status).to.equal(201);
      expect(ok.body).to.deep.equal({ status: 'success' });
      const shown = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}`, { token: owner.token });
      expect(shown.body.merge_when_pipeline_succeeds).to.equal(false);
      expect(shown.body.should_remove_source_branch).to.equal(null);
    });
  });

  describe('closes_issues', () => {
    async function issue(p: Project, title: string, token = owner.token) {
      const r = await s.post(`/projects/${p.id}/issues`, { token, json: { title } });
      expect(r.status, r.text).to.equal(201);
      return r.body;
    }

    it('lists the issues closed by the description and the commits, and merging closes them', async () => {
      const p = await project();
      const i1 = await issue(p, 'one');
      const i2 = await issue(p, 'two');
      const i3 = await issue(p, 'three');
      const i4 = await issue(p, 'four (only mentioned)');
      await files(p, 'fix', { 'fix.txt': 'fix\n' }, `Repair things\n\nResolves #${i3.iid}`, 'master');
      const mr = await openMr(p, 'fix', 'master', { description: `Closes #${i1.iid} and fixes #${i2.iid}.\n\nSee also #${i4.iid}, #999` });

      const list = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/closes_issues`, { token: owner.token });
      expect(list.status, list.text).to.equal(200);
      expect(list.headers.get('x-total')).to.equal('3');
      expect(list.body.map((i: { iid: number }) => i.iid)).to.deep.equal([i1.iid, i2.iid, i3.iid]);
      expect(list.body[0]).to.include.keys('id', 'iid', 'project_id', 'title', 'state', 'labels', 'author', 'web_url');

      const r = await merge(p, mr.iid);
      expect(r.status, r.text).to.equal(200);
      const message = git(p.dir, ['log', '-1', '--format=%B', head(p.dir, 'master')]);
      expect(message).to.include(`Closes #${i1.iid}, #${i2.iid}, and #${i3.iid}`);
      for (const i of [i1, i2, i3]) {
        const shown = await s.get(`/projects/${p.id}/issues/${i.iid}`, { token: owner.token });
        expect(shown.body.state, `#${i.iid}`).to.equal('closed');
        expect(shown.body.closed_by.username).to.equal('mo');
      }
      expect((await s.get(`/projects/${p.id}/issues/${i4.iid}`, { token: owner.token })).body.state).to.equal('opened');
    });

    it('is empty for a merge request into another branch than the default one, which closes nothing', async () => {
      const p = await project();
      const i1 = await issue(p, 'one');
      await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'devel', ref: 'master' } });
      await files(p, 'fix', { 'fix.txt': 'fix\n' }, 'Fix', 'master');
      const mr = await openMr(p, 'fix', 'devel', { description: `Closes #${i1.iid}` });
      const list = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/closes_issues`, { token: owner.token });
      expect(list.status).to.equal(200);
      expect(list.body).to.deep.equal([]);
      expect((await merge(p, mr.iid)).status).to.equal(200);
      expect((await s.get(`/projects/${p.id}/issues/${i1.iid}`, { token: owner.token })).body.state).to.equal('opened');
    });

    it('resolves cross-project references and keeps out issues the reader cannot see', async () => {
      const p = await project();
      // Another (private) project of mo's namespace that rita is no member of.
      const o = await s.post('/projects', { token: owner.token, json: { name: 'neighbour', visibility: 'private' } });
      projects.push(o.body.id);
      const other = { id: o.body.id, path: o.body.path_with_namespace, dir: '' };
      const secret = await s.post('/projects', { token: owner.token, json: { name: 'secretive', visibility: 'private' } });
      projects.push(secret.body.id);
      const hidden = await issue({ id: secret.body.id, path: secret.body.path_with_namespace, dir: '' }, 'hidden');
      const near = await issue(other, 'same namespace');
      const far = await issue(other, 'full path');
      const local = await issue(p, 'local');
      await files(p, 'x', { 'x.txt': 'x\n' }, 'X', 'master');
      const otherName = other.path.split('/')[1];
      const mr = await openMr(p, 'x', 'master', {
        description: `Fixes ${otherName}#${near.iid}, implements ${other.path}#${far.iid} and closes ${secret.body.path_with_namespace}#${hidden.iid}\nCLOSES #${local.iid}`,
      });
      const asOwner = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/closes_issues`, { token: owner.token });
      expect(asOwner.body.map((i: { id: number }) => i.id)).to.deep.equal([near.id, far.id, hidden.id]);
      // rita is a reporter of p only: the other projects' issues are out of sight.
      const asReporter = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/closes_issues`, { token: reporter.token });
      expect(asReporter.status).to.equal(200);
      expect(asReporter.body).to.deep.equal([]);
    });

    it('answers 403 to a user who may not read the merge request, 404 for an unknown iid', async () => {
      const p = await project({ visibility: 'private' });
      const guest = await s.createUser('gus');
      await addRoleMembers(s, p.id, { guest });
      await files(p, 'x', { 'x.txt': 'x\n' }, 'X', 'master');
      const mr = await openMr(p, 'x');
      const r = await s.get(`/projects/${p.id}/merge_requests/${mr.iid}/closes_issues`, { token: guest.token });
      expect(r.status).to.equal(403);
      expect((await s.get(`/projects/${p.id}/merge_requests/4242/closes_issues`, { token: owner.token })).status).to.equal(404);
    });
  });
});
