// The counts of GitLab 10.8's Label entity (Label#open_issues_count, #closed_issues_count and
// #open_merge_requests_count, which ask IssuesFinder and MergeRequestsFinder for the label's
// project as the current user): issues by state, confidential ones only for those who may see
// them; open merge requests only (closed and merged ones are not counted); nothing of a
// feature the user may not read (merge requests of a private project for a guest, a disabled
// feature for everyone, admins included).
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { commitFiles, createBranch, created, openMergeRequest } from '../helpers/projects.js';

describe('Label counts', () => {
  const { s, owner, reporter, guest, stranger, admin } = useServerWithRoles();

  let id: number;
  let base: string;

  /** [open issues, closed issues, open merge requests] of label `name` as the token's user sees them. */
  async function counts(token: string, name = 'bug'): Promise<number[]> {
    const r = await s.get(`${base}/labels`, { token });
    expect(r.status, r.text).to.equal(200);
    const l = r.body.find((x: { name: string }) => x.name === name);
    return [l.open_issues_count, l.closed_issues_count, l.open_merge_requests_count];
  }

  const issue = async (json: Record<string, unknown>, token = owner.token) => created(await s.post(`${base}/issues`, { token, json }));

  before(async () => {
    ({ id } = await projectWithRoles(s, owner, { reporter, guest }, { name: 'counted', visibility: 'private' }));
    base = `/projects/${id}`;
    created(await s.post(`${base}/labels`, { token: owner.token, json: { name: 'bug', color: '#ff0000' } }));
    created(await s.post(`${base}/labels`, { token: owner.token, json: { name: 'other', color: '#00ff00' } }));
    await issue({ title: 'open', labels: 'bug' });
    await issue({ title: 'secret', labels: 'bug', confidential: true });
    // A guest may not set labels: the owner labels the guest's confidential issue.
    const guests = await issue({ title: "guest's secret", confidential: true }, guest.token);
    expect((await s.put(`${base}/issues/${guests.iid}`, { token: owner.token, json: { labels: 'bug' } })).status).to.equal(200);
    const closed = await issue({ title: 'closed', labels: 'bug' });
    expect((await s.put(`${base}/issues/${closed.iid}`, { token: owner.token, json: { state_event: 'close' } })).status).to.equal(200);
    await issue({ title: 'unlabelled' });

    await commitFiles(s, id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hello\n' }], { token: owner.token });
    for (const branch of ['one', 'two', 'three', 'four', 'five']) {
      await createBranch(s, id, branch, 'master', owner.token);
      await commitFiles(s, id, branch, [{ action: 'create', file_path: `${branch}.txt`, content: `${branch}\n` }], { token: owner.token });
    }
    const mr = (source: string, labels: string) => openMergeRequest(s, id, { source_branch: source, target_branch: 'master', title: source, labels }, owner.token);
    await mr('one', 'bug');
    await mr('two', 'bug,other');
    const closedMr = await mr('three', 'bug');
    expect((await s.put(`${base}/merge_requests/${closedMr.iid}`, { token: owner.token, json: { state_event: 'close' } })).status).to.equal(200);
    const mergedMr = await mr('four', 'bug');
    const merged = await s.put(`${base}/merge_requests/${mergedMr.iid}/merge`, { token: owner.token });
    expect(merged.status, merged.text).to.equal(200);
    await mr('five', 'other');
  });

  it('counts open merge requests carrying the label, not closed or merged ones', async () => {
    expect(await counts(owner.token)).to.deep.equal([3, 1, 2]);
    expect(await counts(owner.token, 'other')).to.deep.equal([0, 0, 2]);
  });

  it('counts confidential issues only for those who may see them', async () => {
    expect(await counts(reporter.token)).to.deep.equal([3, 1, 2]);
    expect(await counts(admin.token)).to.deep.equal([3, 1, 2]);
    // A guest sees the confidential issue they wrote, not the other one, and no merge
    // requests: a guest of a private project may not read them.
    expect(await counts(guest.token)).to.deep.equal([2, 1, 0]);
  });

  it('counts merge requests for readers of a public project', async () => {
    expect((await s.put(base, { token: owner.token, json: { visibility: 'public' } })).status).to.equal(200);
    expect(await counts(stranger.token)).to.deep.equal([1, 1, 2]);
    expect(await counts(guest.token)).to.deep.equal([2, 1, 2]);
  });

  it('counts nothing of a disabled feature, for anyone', async () => {
    expect((await s.put(base, { token: owner.token, json: { merge_requests_enabled: false } })).status).to.equal(200);
    expect(await counts(admin.token)).to.deep.equal([3, 1, 0]);
    expect((await s.put(base, { token: owner.token, json: { issues_enabled: false } })).status).to.equal(200);
    expect(await counts(admin.token)).to.deep.equal([0, 0, 0]);
    expect(await counts(owner.token)).to.deep.equal([0, 0, 0]);
  });
});
