// POST /projects/:id/repository/commits/:sha/cherry_pick (GitLab 10.8 lib/api/commits.rb,
// Commits::CherryPickService): the commit's change as a new commit on the branch, compared
// with what `git cherry-pick` makes of it in a clone; 10.8's errors and the permission matrix.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { commitFiles, createBranch, created, repoDir } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';
import { expectFsckClean, expectUntouched, git, head, refState } from '../helpers/bare_git.js';
import { CANNOT_CHERRY_PICK, cannotCherryPick } from '../../src/services/repository/cherry_pick.js';

describe('Commits API: cherry-pick', () => {
  const { s, owner, master, dev, reporter, guest, stranger } = useServerWithRoles();
  let counter = 0;

  /** master: a.txt and b.txt; feature (from master) adds c.txt and then changes a.txt. */
  async function seeded(visibility = 'private') {
    const p = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `cp${++counter}`, visibility });
    const dir = repoDir(s, p.path_with_namespace);
    const write = (branch: string, files: Record<string, string>, message: string, action = 'create') =>
      commitFiles(
        s,
        p.id,
        branch,
        Object.entries(files).map(([file_path, content]) => ({ action, file_path, content })),
        { message, token: owner.token },
      );
    await write('master', { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' }, 'Initial');
    await createBranch(s, p.id, 'feature', 'master', owner.token);
    const addC = await write('feature', { 'c.txt': 'c\n' }, 'Add c\n\nWith a body');
    const changeA = await write('feature', { 'a.txt': 'one\nTWO\nthree\n' }, 'Change a', 'update');
    return { id: p.id as number, dir, addC, changeA, url: (sha: string) => `/projects/${p.id}/repository/commits/${sha}/cherry_pick` };
  }

  /** The tree `git cherry-pick` makes of `sha` on `branch`, in a clone. */
  function gitCherryPick(dir: string, branch: string, sha: string): string {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-cp-'));
    try {
      const run = (args: string[]) =>
        execFileSync('git', ['-C', work, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args])
          .toString()
          .trim();
      execFileSync('git', ['clone', '--quiet', '--branch', branch, dir, work]);
      run(['cherry-pick', ...(git(dir, ['rev-list', '--parents', '-n1', sha]).trim().split(' ').length > 2 ? ['-m', '1'] : []), sha]);
      return run(['rev-parse', 'HEAD^{tree}']);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }

  it('writes the change as a new commit on the branch: author kept, the user as committer (Commit entity)', async () => {
    const p = await seeded();
    const before = head(p.dir, 'master');
    const expectedTree = gitCherryPick(p.dir, 'master', p.addC);
    const r = await s.post(p.url(p.addC), { token: master.token, json: { branch: 'master' } });
    expect(r.status, r.text).to.equal(201);
    expectSchema(r.body, 'public_api/v4/commit/basic.json');
    const now = head(p.dir, 'master');
    expect(r.body.id).to.equal(now);
    expect(r.body.parent_ids).to.deep.equal([before]);
    expect(r.body.title).to.equal('Add c');
    expect(r.body.message).to.equal(`Add c\n\nWith a body\n\n(cherry picked from commit ${p.addC})`);
    expect(r.body.author_name).to.equal(owner.user.name);
    expect(r.body.committer_name).to.equal(master.user.name);
    expect(git(p.dir, ['rev-parse', `${now}^{tree}`]).trim()).to.equal(expectedTree);
    expect(git(p.dir, ['show', `${now}:c.txt`])).to.equal('c\n');
    expect(git(p.dir, ['log', '-1', '--format=%an|%ae|%at', now])).to.equal(git(p.dir, ['log', '-1', '--format=%an|%ae|%at', p.addC]));
    expectFsckClean(p.dir);
  });

  it('applies a later change alone (not the commits before it), by branch name too', async () => {
    const p = await seeded();
    const expectedTree = gitCherryPick(p.dir, 'master', p.changeA);
    const r = await s.post(p.url('feature'), { token: owner.token, json: { branch: 'master' } });
    expect(r.status, r.text).to.equal(201);
    expect(git(p.dir, ['rev-parse', 'master^{tree}']).trim()).to.equal(expectedTree);
    expect(git(p.dir, ['ls-tree', '--name-only', 'master']).split('\n').filter(Boolean)).to.deep.equal(['a.txt', 'b.txt']);
  });

  it("picks a merge commit against its first parent, naming the merged merge request's commits", async () => {
    const p = await seeded();
    await createBranch(s, p.id, 'side', 'master', owner.token);
    const mr = created(await s.post(`/projects/${p.id}/merge_requests`, { token: owner.token, json: { source_branch: 'feature', target_branch: 'side', title: 'F' } }));
    const merged = await s.put(`/projects/${p.id}/merge_requests/${mr.iid}/merge`, { token: owner.token });
    expect(merged.status, merged.text).to.equal(200);
    const mergeCommit = head(p.dir, 'side');
    const expectedTree = gitCherryPick(p.dir, 'master', mergeCommit);
    const r = await s.post(p.url(mergeCommit), { token: owner.token, json: { branch: 'master' } });
    expect(r.status, r.text).to.equal(201);
    expect(git(p.dir, ['rev-parse', 'master^{tree}']).trim()).to.equal(expectedTree);
    expect(r.body.parent_ids).to.have.length(1);
    // The merged merge request's commits, oldest first, below the cherry-picked line.
    const raw = git(p.dir, ['cat-file', 'commit', mergeCommit]);
    const original = raw.slice(raw.indexOf('\n\n') + 2);
    const list = `${p.addC.slice(0, 8)} Add c\n${p.changeA.slice(0, 8)} Change a`;
    expect(r.body.message).to.equal(`${original}\n\n(cherry picked from commit ${mergeCommit})\n\n${list}`);
    // Picked again: already there, and 10.8 calls it a merge request.
    const again = await s.post(p.url(mergeCommit), { token: owner.token, json: { branch: 'master' } });
    expect([again.status, again.body]).to.deep.equal([400, { message: cannotCherryPick('merge request') }]);
    expect(cannotCherryPick('merge request')).to.match(/^Sorry, we cannot cherry-pick this merge request automatically\.\n {19}This merge request may/);
  });

  it('is recorded as a push: a "pushed to" event of the user', async () => {
    const p = await seeded();
    created(await s.post(p.url(p.addC), { token: owner.token, json: { branch: 'master' } }));
    const events = await s.get(`/projects/${p.id}/events`, { token: owner.token });
    expect(events.body[0].action_name).to.equal('pushed to');
    expect(events.body[0].push_data.commit_to).to.equal(head(p.dir, 'master'));
  });

  describe("10.8's refusals, the repository untouched", () => {
    it('400 when the change is already there or does not apply', async () => {
      const p = await seeded();
      created(await s.post(p.url(p.addC), { token: owner.token, json: { branch: 'master' } }));
      let before = refState(p.dir);
      let r = await s.post(p.url(p.addC), { token: owner.token, json: { branch: 'master' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: CANNOT_CHERRY_PICK });
      expect(CANNOT_CHERRY_PICK).to.match(/^Sorry, we cannot cherry-pick this commit automatically\.\n {19}This commit may already have been cherry-picked/);
      expectUntouched(p.dir, before);

      await commitFiles(s, p.id, 'master', [{ action: 'update', file_path: 'a.txt', content: 'one\nzwei\nthree\n' }], { token: owner.token });
      before = refState(p.dir);
      r = await s.post(p.url(p.changeA), { token: owner.token, json: { branch: 'master' } });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({ message: CANNOT_CHERRY_PICK });
      expectUntouched(p.dir, before);
    });

    it('404 for an unknown commit or branch, 400 without a branch', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.post(p.url('unknown'), { token: owner.token, json: { branch: 'master' } });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      r = await s.post(p.url('0'.repeat(40)), { token: owner.token, json: { branch: 'master' } });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Commit Not Found' }]);
      r = await s.post(p.url(p.addC), { token: owner.token, json: { branch: 'foo' } });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Branch Not Found' }]);
      r = await s.post(p.url(p.addC), { token: owner.token });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'branch is missing' }]);
      expectUntouched(p.dir, before);
    });

    it('400 for a developer on a protected branch; a developer may pick onto an unprotected one', async () => {
      const p = await seeded();
      const before = refState(p.dir);
      let r = await s.post(p.url(p.addC), { token: dev.token, json: { branch: 'master' } });
      expect([r.status, r.body]).to.deep.equal([400, { message: 'You are not allowed to push into this branch' }]);
      expectUntouched(p.dir, before);
      await createBranch(s, p.id, 'topic', 'master', owner.token);
      r = await s.post(p.url(p.addC), { token: dev.token, json: { branch: 'topic' } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.committer_name).to.equal(dev.user.name);
    });
  });

  describe('the permission matrix (push_code)', () => {
    // Anyone who may push gets as far as the branch: 404 Branch Not Found for `nope`.
    const PASSED = [404, { message: '404 Branch Not Found' }];
    const HIDDEN = [404, { message: '404 Project Not Found' }];
    const FORBIDDEN = [403, { message: '403 Forbidden' }];
    const ANONYMOUS = [401, { message: '401 Unauthorized' }];
    const cases: Record<string, Record<string, unknown[]>> = {
      private: { anonymous: HIDDEN, stranger: HIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, dev: PASSED, master: PASSED },
      internal: { anonymous: HIDDEN, stranger: FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, dev: PASSED, master: PASSED },
      public: { anonymous: ANONYMOUS, stranger: FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, dev: PASSED, master: PASSED },
    };
    for (const [visibility, expected] of Object.entries(cases)) {
      it(`a ${visibility} project`, async () => {
        const p = await seeded(visibility);
        const who: Record<string, Account | null> = { anonymous: null, stranger, guest, reporter, dev, master };
        for (const [name, want] of Object.entries(expected)) {
          const r = await s.post(p.url(p.addC), { token: who[name]?.token ?? null, json: { branch: 'nope' } });
          expect([r.status, r.body], name).to.deep.equal(want);
        }
      });
    }
  });
});
