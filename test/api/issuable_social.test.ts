// Subscriptions and time tracking of issues and merge requests (GitLab 10.8
// lib/api/subscriptions.rb, Subscribable/Issuable#subscribed?, lib/api/time_tracking_endpoints.rb,
// TimeTrackable): statuses (201/304, 200/201), rights, the participation that subscribes
// without an explicit choice, durations and their errors, the system notes, and time stats in
// the issue entity; then the same routes on a merge request.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles, type Account } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';

type Project = { id: number; issues: string };

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const NOT_FOUND = { message: '404 Not found' };
const STATS_KEYS = ['time_estimate', 'total_time_spent', 'human_time_estimate', 'human_total_time_spent'];

describe('Subscriptions and time tracking', () => {
  const { s, owner, master, dev, reporter, guest, stranger, admin } = useServerWithRoles();

  let counter = 0;
  async function project(visibility = 'private'): Promise<Project> {
    const { id } = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `so${++counter}`, visibility });
    return { id, issues: `/projects/${id}/issues` };
  }

  async function issue(p: Project, body: Record<string, unknown> = {}, token = owner.token) {
    const r = await s.post(p.issues, { token, json: { title: 'tracked', ...body } });
    expect(r.status, r.text).to.equal(201);
    return r.body;
  }

  async function subscribed(p: Project, iid: number, who: Account): Promise<boolean> {
    const r = await s.get(`${p.issues}/${iid}`, { token: who.token });
    expect(r.status, r.text).to.equal(200);
    return r.body.subscribed;
  }

  it('answers 401 to anonymous requests on every route', async () => {
    const p = await project('public');
    await issue(p);
    for (const kind of ['issues', 'merge_requests']) {
      const base = `/projects/${p.id}/${kind}/1`;
      for (const action of ['subscribe', 'unsubscribe', 'time_estimate', 'reset_time_estimate', 'add_spent_time', 'reset_spent_time']) {
        const r = await s.post(`${base}/${action}`, { token: null, json: { duration: '1h' } });
        expect(r.status, `${kind} ${action}`).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
      const stats = await s.get(`${base}/time_stats`, { token: null });
      expect(stats.status).to.equal(401);
    }
  });

  describe('subscriptions', () => {
    let p: Project;
    before(async () => {
      p = await project();
    });

    it('subscribes (201, the Issue entity) and answers 304 with no body when already subscribed', async () => {
      const i = await issue(p);
      expect(await subscribed(p, i.iid, reporter)).to.equal(false);
      const r = await s.post(`${p.issues}/${i.iid}/subscribe`, { token: reporter.token });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ id: i.id, iid: i.iid, subscribed: true });
      expect(r.body._links.self).to.match(new RegExp(`/projects/${p.id}/issues/${i.iid}$`));
      expect(await subscribed(p, i.iid, reporter)).to.equal(true);
      const again = await s.post(`${p.issues}/${i.iid}/subscribe`, { token: reporter.token });
      expect(again.status).to.equal(304);
      expect(again.text).to.equal('');
    });

    it('unsubscribes (201) even a participant, and answers 304 when not subscribed', async () => {
      const i = await issue(p);
      expect(await subscribed(p, i.iid, owner)).to.equal(true); // the author
      const first = await s.post(`${p.issues}/${i.iid}/subscribe`, { token: owner.token });
      expect(first.status).to.equal(304);
      const r = await s.post(`${p.issues}/${i.iid}/unsubscribe`, { token: owner.token });
      expect(r.status).to.equal(201);
      expect(r.body.subscribed).to.equal(false);
      expect(await subscribed(p, i.iid, owner)).to.equal(false);
      const again = await s.post(`${p.issues}/${i.iid}/unsubscribe`, { token: owner.token });
      expect(again.status).to.equal(304);
      expect(again.text).to.equal('');
      // The explicit choice wins over taking part.
      expect((await s.post(`${p.issues}/${i.iid}/notes`, { token: owner.token, json: { body: 'still here' } })).status).to.equal(201);
      expect(await subscribed(p, i.iid, owner)).to.equal(false);
    });

    it('subscribes participants without a choice: assignee, mentioned, commenter, awarder', async () => {
      const i = await issue(p, { assignee_ids: [dev.user.id], description: 'cc @Reporter. and @mast' });
      expect(await subscribed(p, i.iid, dev)).to.equal(true);
      expect(await subscribed(p, i.iid, reporter)).to.equal(true); // case-insensitive, trailing dot
      expect(await subscribed(p, i.iid, master)).to.equal(false); // @mast is someone else
      expect(await subscribed(p, i.iid, guest)).to.equal(false);
      expect((await s.post(`${p.issues}/${i.iid}/notes`, { token: guest.token, json: { body: 'me too' } })).status).to.equal(201);
      expect(await subscribed(p, i.iid, guest)).to.equal(true);
      expect(await subscribed(p, i.iid, admin)).to.equal(false);
      expect((await s.post(`${p.issues}/${i.iid}/award_emoji`, { token: admin.token, json: { name: 'eyes' } })).status).to.equal(201);
      expect(await subscribed(p, i.iid, admin)).to.equal(true);
      const j = await issue(p);
      const n = (await s.post(`${p.issues}/${j.iid}/notes`, { token: owner.token, json: { body: 'ping @master' } })).body;
      expect(await subscribed(p, j.iid, master)).to.equal(true);
      expect(await subscribed(p, j.iid, dev)).to.equal(false);
      expect((await s.post(`${p.issues}/${j.iid}/notes/${n.id}/award_emoji`, { token: dev.token, json: { name: 'smile' } })).status).to.equal(201);
      expect(await subscribed(p, j.iid, dev)).to.equal(true);
    });

    it('answers 404 Not found for an unknown iid, a non-integer and a confidential issue the user may not read', async () => {
      const pub = await project('public');
      const secret = await issue(pub, { title: 'secret', confidential: true });
      await issue(pub);
      const paths: [string, Account][] = [
        [`${pub.issues}/999/subscribe`, owner],
        [`${pub.issues}/${secret.id + 1000}/subscribe`, owner],
        [`${pub.issues}/abc/subscribe`, owner],
        [`${pub.issues}/${secret.iid}/subscribe`, guest],
        [`${pub.issues}/${secret.iid}/unsubscribe`, stranger],
      ];
      for (const [path, who] of paths) {
        const r = await s.post(path, { token: who.token });
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal(NOT_FOUND);
      }
      const ok = await s.post(`${pub.issues}/${secret.iid}/subscribe`, { token: reporter.token });
      expect(ok.status).to.equal(201);
      const priv = await s.post(`/projects/${p.id}/issues/1/subscribe`, { token: stranger.token });
      expect(priv.status).to.equal(404);
      expect(priv.body).to.deep.equal({ message: '404 Project Not Found' });
    });
  });

  describe('time tracking', () => {
    let p: Project;
    before(async () => {
      p = await project();
    });

    it('sets (200), resets (200) and shows the estimate, with system notes', async () => {
      const i = await issue(p);
      const base = `${p.issues}/${i.iid}`;
      const set = await s.post(`${base}/time_estimate`, { token: reporter.token, json: { duration: '3h30m' } });
      expect(set.status, set.text).to.equal(200);
      expect(Object.keys(set.body)).to.deep.equal(STATS_KEYS);
      expect(set.body).to.deep.equal({ time_estimate: 12600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null });
      const week = await s.post(`${base}/time_estimate`, { token: reporter.token, json: { duration: '1w 2d' } });
      expect(week.body).to.include({ time_estimate: 7 * 8 * 3600, human_time_estimate: '1w 2d' });
      const reset = await s.post(`${base}/reset_time_estimate`, { token: reporter.token });
      expect(reset.status).to.equal(200);
      expect(reset.body).to.deep.equal({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
      const again = await s.post(`${base}/reset_time_estimate`, { token: reporter.token });
      expect(again.status).to.equal(200);
      const notes = await s.get(`${base}/notes`, { token: owner.token, query: { sort: 'asc' } });
      expect(notes.body.map((n: { body: string; system: boolean }) => [n.body, n.system])).to.deep.equal([
        ['changed time estimate to 3h 30m', true],
        ['changed time estimate to 1w 2d', true],
        ['removed time estimate', true],
      ]);
      const stats = await s.get(`${base}/time_stats`, { token: guest.token });
      expect(stats.status).to.equal(200);
      expect(stats.body).to.deep.equal(reset.body);
    });

    it('adds (201), subtracts and resets (200) spent time; never below zero', async () => {
      const i = await issue(p);
      const base = `${p.issues}/${i.iid}`;
      const add = await s.post(`${base}/add_spent_time`, { token: dev.token, json: { duration: '2h' } });
      expect(add.status, add.text).to.equal(201);
      expect(add.body).to.deep.equal({ time_estimate: 0, total_time_spent: 7200, human_time_estimate: null, human_total_time_spent: '2h' });
      const sub = await s.post(`${base}/add_spent_time`, { token: dev.token, json: { duration: '-1h' } });
      expect(sub.status).to.equal(201);
      expect(sub.body.total_time_spent).to.equal(3600);
      const over = await s.post(`${base}/add_spent_time`, { token: dev.token, json: { duration: '-1w' } });
      expect(over.status).to.equal(400);
      expect(over.body).to.deep.equal({ message: { time_spent: ['Time to subtract exceeds the total time spent'] } });
      const reset = await s.post(`${base}/reset_spent_time`, { token: dev.token });
      expect(reset.status).to.equal(200);
      expect(reset.body.total_time_spent).to.equal(0);
      const notes = await s.get(`${base}/notes`, { token: owner.token, query: { sort: 'asc' } });
      expect(notes.body.map((n: { body: string }) => n.body)).to.deep.equal(['added 2h of time spent', 'subtracted 1h of time spent', 'removed time spent']);
      expect(notes.body.every((n: { system: boolean; author: { id: number } }) => n.system && n.author.id === dev.user.id)).to.equal(true);
    });

    it("answers GitLab's model errors for a bad duration, and 400 when it is missing", async () => {
      const i = await issue(p);
      const base = `${p.issues}/${i.iid}`;
      await s.post(`${base}/time_estimate`, { token: owner.token, json: { duration: '1w' } });
      for (const duration of ['foo', '0', '']) {
        const est = await s.post(`${base}/time_estimate`, { token: owner.token, json: { duration } });
        expect(est.status, duration).to.equal(400);
        expect(est.body).to.deep.equal({ message: { time_estimate: ['has an invalid format'] } });
        const spend = await s.post(`${base}/add_spent_time`, { token: owner.token, json: { duration } });
        expect(spend.status).to.equal(400);
        expect(spend.body).to.deep.equal({ message: { timelogs: ['is invalid'] } });
      }
      for (const action of ['time_estimate', 'add_spent_time']) {
        const r = await s.post(`${base}/${action}`, { token: owner.token, json: {} });
        expect(r.status).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'duration is missing' });
      }
      const stats = await s.get(`${base}/time_stats`, { token: owner.token });
      expect(stats.body).to.include({ time_estimate: 5 * 8 * 3600, human_time_estimate: '1w', total_time_spent: 0 });
    });

    it('shows time stats in the issue entity and moves its updated_at', async () => {
      const old = '2018-01-01T00:00:00.000Z';
      const i = await issue(p, { created_at: old });
      await s.post(`${p.issues}/${i.iid}/time_estimate`, { token: owner.token, json: { duration: '1d' } });
      await s.post(`${p.issues}/${i.iid}/add_spent_time`, { token: owner.token, json: { duration: '90m' } });
      const got = await s.get(`${p.issues}/${i.iid}`, { token: owner.token });
      expect(got.body.time_stats).to.deep.equal({ time_estimate: 28800, total_time_spent: 5400, human_time_estimate: '1d', human_total_time_spent: '1h 30m' });
      expect(got.body.updated_at > old).to.equal(true);
      expect(got.body.user_notes_count).to.equal(0);
      const list = await s.get(p.issues, { token: owner.token, query: { iids: [i.iid] } });
      expect(list.body[0].time_stats).to.deep.equal(got.body.time_stats);
      expectSchema(list.body, 'public_api/v4/issues.json');
    });

    it('needs update_issue to change (403) and read to show; authors may track their own issue', async () => {
      const i = await issue(p);
      for (const action of ['time_estimate', 'reset_time_estimate', 'add_spent_time', 'reset_spent_time']) {
        const r = await s.post(`${p.issues}/${i.iid}/${action}`, { token: guest.token, json: { duration: '1h' } });
        expect(r.status, action).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      const stats = await s.get(`${p.issues}/${i.iid}/time_stats`, { token: guest.token });
      expect(stats.status).to.equal(200);
      const own = await issue(p, {}, guest.token);
      const r = await s.post(`${p.issues}/${own.iid}/time_estimate`, { token: guest.token, json: { duration: '2h' } });
      expect(r.status).to.equal(200);
      const unknown = await s.post(`${p.issues}/999/time_estimate`, { token: owner.token, json: { duration: '1h' } });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal(NOT_FOUND);
      const bad = await s.get(`${p.issues}/x/time_stats`, { token: owner.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'issue_iid is invalid' });
      const secret = await issue(p, { confidential: true });
      const hidden = await s.get(`${p.issues}/${secret.iid}/time_stats`, { token: guest.token });
      expect(hidden.status).to.equal(404);
      expect(hidden.body).to.deep.equal(NOT_FOUND);
    });
  });
  describe('on a merge request', () => {
    let p: Project;
    let mrPath: string;
    let mr: { id: number; iid: number };
    before(async () => {
      p = await project();
      const commit = async (branch: string, file: string) => {
        const r = await s.post(`/projects/${p.id}/repository/commits`, {
          token: owner.token,
          json: { branch, commit_message: `add ${file}`, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] },
        });
        expect(r.status, r.text).to.equal(201);
      };
      await commit('master', 'README.md');
      const b = await s.post(`/projects/${p.id}/repository/branches`, { token: owner.token, json: { branch: 'feature', ref: 'master' } });
      expect(b.status, b.text).to.equal(201);
      await commit('feature', 'a.txt');
      const r = await s.post(`/projects/${p.id}/merge_requests`, { token: owner.token, json: { title: 'Add a', source_branch: 'feature', target_branch: 'master' } });
      expect(r.status, r.text).to.equal(201);
      mr = r.body;
      mrPath = `/projects/${p.id}/merge_requests/${mr.iid}`;
    });

    async function getMr(who = owner) {
      const r = await s.get(mrPath, { token: who.token });
      expect(r.status, r.text).to.equal(200);
      return r.body;
    }

    it('takes notes: counted on the merge request, in the Note shape', async () => {
      const r = await s.post(`${mrPath}/notes`, { token: reporter.token, json: { body: 'LGTM' } });
      expect(r.status, r.text).to.equal(201);
      expect(r.body).to.include({ noteable_type: 'MergeRequest', noteable_id: mr.id, noteable_iid: mr.iid, body: 'LGTM' });
      expectSchema([r.body], 'public_api/v4/notes.json');
      const list = await s.get(`${mrPath}/notes`, { token: dev.token });
      expect(list.body.map((n: { id: number }) => n.id)).to.deep.equal([r.body.id]);
      expect((await getMr()).user_notes_count).to.equal(1);
      const edit = await s.put(`${mrPath}/notes/${r.body.id}`, { token: reporter.token, json: { body: 'LGTM!' } });
      expect(edit.status).to.equal(200);
      const del = await s.delete(`${mrPath}/notes/${r.body.id}`, { token: master.token });
      expect(del.status).to.equal(204);
      expect((await getMr()).user_notes_count).to.equal(0);
    });

    it("hides a private project's merge requests from guests (404 merge_requests Not Found)", async () => {
      for (const [method, path] of [
        ['GET', `${mrPath}/notes`],
        ['POST', `${mrPath}/notes`],
      ]) {
        const r = await s.request(method, path, { token: guest.token, json: method === 'POST' ? { body: 'x' } : undefined });
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal({ message: '404 merge_requests Not Found' });
      }
      const awards = await s.get(`${mrPath}/award_emoji`, { token: guest.token });
      expect(awards.status).to.equal(404);
      expect(awards.body).to.deep.equal({ message: '404 Award Emoji Not Found' });
      const stats = await s.get(`${mrPath}/time_stats`, { token: guest.token });
      expect(stats.status).to.equal(403);
      const unknown = await s.get(`/projects/${p.id}/merge_requests/999/notes`, { token: owner.token });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal(NOT_FOUND);
    });

    it('takes award emoji on itself and its notes, and counts votes', async () => {
      const up = await s.post(`${mrPath}/award_emoji`, { token: dev.token, json: { name: 'thumbsup' } });
      expect(up.status, up.text).to.equal(201);
      expect(up.body).to.include({ awardable_type: 'MergeRequest', awardable_id: mr.id, name: 'thumbsup' });
      const own = await s.post(`${mrPath}/award_emoji`, { token: owner.token, json: { name: 'thumbsup' } });
      expect(own.status).to.equal(404);
      const got = await getMr();
      expect(got.upvotes).to.equal(1);
      const n = (await s.post(`${mrPath}/notes`, { token: dev.token, json: { body: 'see' } })).body;
      const onNote = await s.post(`${mrPath}/notes/${n.id}/award_emoji`, { token: reporter.token, json: { name: 'eyes' } });
      expect(onNote.status).to.equal(201);
      expect(onNote.body).to.include({ awardable_type: 'Note', awardable_id: n.id });
      const list = await s.get(`${mrPath}/notes/${n.id}/award_emoji`, { token: reporter.token });
      expect(list.body).to.have.length(1);
      expect((await s.delete(`${mrPath}/award_emoji/${up.body.id}`, { token: dev.token })).status).to.equal(204);
    });

    it('subscribes and unsubscribes with update_merge_request (the MergeRequest entity; 403 otherwise)', async () => {
      const sub = await s.post(`${mrPath}/subscribe`, { token: master.token });
      expect(sub.status, sub.text).to.equal(201);
      expect(sub.body).to.include({ id: mr.id, iid: mr.iid, subscribed: true });
      expect(sub.body).to.have.property('diff_refs');
      expect((await getMr(master)).subscribed).to.equal(true);
      const again = await s.post(`${mrPath}/subscribe`, { token: master.token });
      expect(again.status).to.equal(304);
      const author = await s.post(`${mrPath}/subscribe`, { token: owner.token });
      expect(author.status).to.equal(304); // the author takes part
      const un = await s.post(`${mrPath}/unsubscribe`, { token: master.token });
      expect(un.status).to.equal(201);
      expect(un.body.subscribed).to.equal(false);
      for (const who of [reporter, guest]) {
        const r = await s.post(`${mrPath}/subscribe`, { token: who.token });
        expect(r.status, who.user.username).to.equal(403);
        expect(r.body).to.deep.equal(FORBIDDEN);
      }
      const unknown = await s.post(`/projects/${p.id}/merge_requests/999/subscribe`, { token: owner.token });
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal(NOT_FOUND);
    });

    it('tracks time (developers; reporters 403) and shows it in the entity', async () => {
      const est = await s.post(`${mrPath}/time_estimate`, { token: dev.token, json: { duration: '1h30m' } });
      expect(est.status, est.text).to.equal(200);
      expect(est.body).to.include({ time_estimate: 5400, human_time_estimate: '1h 30m' });
      const spend = await s.post(`${mrPath}/add_spent_time`, { token: dev.token, json: { duration: '45m' } });
      expect(spend.status).to.equal(201);
      expect(spend.body).to.include({ total_time_spent: 2700, human_total_time_spent: '45m' });
      const refused = await s.post(`${mrPath}/add_spent_time`, { token: reporter.token, json: { duration: '1h' } });
      expect(refused.status).to.equal(403);
      const stats = await s.get(`${mrPath}/time_stats`, { token: reporter.token });
      expect(stats.body).to.deep.equal({ time_estimate: 5400, total_time_spent: 2700, human_time_estimate: '1h 30m', human_total_time_spent: '45m' });
      expect((await getMr()).time_stats).to.deep.equal(stats.body);
      expect((await s.post(`${mrPath}/reset_spent_time`, { token: dev.token })).body.total_time_spent).to.equal(0);
      expect((await s.post(`${mrPath}/reset_time_estimate`, { token: dev.token })).body.time_estimate).to.equal(0);
    });
  });
});
