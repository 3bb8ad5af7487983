// Webhooks: the project hook and system hook endpoints as GitLab 10.8 answers
// them, and deliveries to a real HTTP receiver on 127.0.0.1 — one per event with 10.8's
// headers and payload fields, the retry of a receiver that fails, a hanging receiver that
// delays no API write, and no delivery to a local address unless the setting allows it.
import { expect } from 'chai';
import { makeKey } from '../helpers/ssh_keys.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootServer, type TestServer } from '../helpers/server.js';
import { git, repoUrl, workRepo, commit } from '../transport/git_client.js';
import { hostInterfaceAddress, urlHost } from '../helpers/host_address.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A webhook receiver: `/ok` answers 200, `/flaky` 500 then 200, `/flaky-twice` 500 twice then 200, `/hang` never, `/redirect` 302 to /ok. */
class Receiver {
  readonly received: Received[] = [];
  readonly hanging: http.ServerResponse[] = [];
  private flaky = 0;
  private flakyTwice = 0;
  /** When each request arrived (ms since the epoch), in order. */
  readonly arrivals: { path: string; at: number }[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      this.received.push({ path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : null });
      this.arrivals.push({ path: req.url ?? '', at: Date.now() });
      if (req.url === '/hang') return void this.hanging.push(res);
      if (req.url === '/flaky' && this.flaky++ === 0) return void res.writeHead(500).end('boom');
      if (req.url === '/flaky-twice' && this.flakyTwice++ < 2) return void res.writeHead(500).end('boom');
      if (req.url === '/redirect') return void res.writeHead(302, { Location: `${this.url}/ok` }).end();
      res.writeHead(200).end('ok');
    });
  });
  url = '';

  async start(host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    this.url = `http://${urlHost(host)}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  at(path: string, event?: string): Received[] {
    return this.received.filter((r) => r.path === path && (event === undefined || r.headers['x-gitlab-event'] === event));
  }

  clear(): void {
    this.received.length = 0;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const HOOK_FIELDS = [
  'id',
  'url',
  'created_at',
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'enable_ssl_verification',
  'project_id',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
];

describe('Webhooks', function () {
  this.timeout(90_000);
  let s: TestServer;
  let rx: Receiver;
  let project: { id: number; path_with_namespace: string };

  const allowLocal = async (on: boolean) => {
    const r = await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: on } });
    expect(r.status, r.text).to.equal(200);
  };

  before(async () => {
    rx = await new Receiver().start();
    s = await bootServer();
    project = (await s.post('/projects', { json: { name: 'hooked' } })).body;
  });
  after(async () => {
    await s?.close();
    await rx?.stop();
  });

  describe('project hooks API', () => {
    it('creates, lists, reads, changes and deletes a hook, never answering its token', async () => {
      const created = await s.post(`/projects/${project.id}/hooks`, { json: { url: 'http://example.com/h', token: 'secret', issues_events: true } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.have.all.keys(...HOOK_FIELDS);
      expect(created.body).to.include({
        url: 'http://example.com/h',
        project_id: project.id,
        push_events: true,
        issues_events: true,
        note_events: false,
        enable_ssl_verification: true,
      });
      expect(created.text).to.not.include('secret');
      const id = created.body.id;

      const list = await s.get(`/projects/${project.id}/hooks`);
      expect(list.status).to.equal(200);
      expect(list.body.map((h: { id: number }) => h.id)).to.deep.equal([id]);
      expect(list.text).to.not.include('secret');

      const changed = await s.put(`/projects/${project.id}/hooks/${id}`, { json: { url: 'http://example.com/other', push_events: false } });
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body).to.include({ url: 'http://example.com/other', push_events: false, issues_events: true });
      expect((await s.get(`/projects/${project.id}/hooks/${id}`)).body).to.deep.equal(changed.body);

      const gone = await s.delete(`/projects/${project.id}/hooks/${id}`);
      expect(gone.status).to.equal(204);
      const missing = await s.get(`/projects/${project.id}/hooks/${id}`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 Not found' });
    });

    it('answers each error as 10.8 does and stores nothing', async () => {
      const bad = await s.post(`/projects/${project.id}/hooks`, { json: { url: 'ftp://example.com/x' } });
      expect(bad.status).to.equal(422);
      expect(bad.body).to.deep.equal({ error: 'Invalid url given' });
      const none = await s.post(`/projects/${project.id}/hooks`, { json: {} });
      expect(none.status).to.equal(400);
      expect(none.body).to.deep.equal({ error: 'url is missing' });
      const token = await s.post(`/projects/${project.id}/hooks`, { json: { url: 'http://example.com/', token: 'a\nb' } });
      expect(token.status).to.equal(404);
      expect(token.body).to.deep.equal({ message: '404 Project hook {:token=>["is invalid"]} Not Found' });
      expect((await s.get(`/projects/${project.id}/hooks`)).body).to.deep.equal([]);
      const put = await s.put(`/projects/${project.id}/hooks/999999`, { json: { url: 'http://example.com/' } });
      expect(put.status).to.equal(404);
      expect(put.body).to.deep.equal({ message: '404 Not found' });

      const dev = await s.createUser('hook-dev');
      await s.post(`/projects/${project.id}/members`, { json: { user_id: dev.user.id, access_level: 30 } });
      const denied = await s.get(`/projects/${project.id}/hooks`, { token: dev.token });
      expect(denied.status).to.equal(403);
      expect(denied.body).to.deep.equal({ message: '403 Forbidden' });
      const anonymous = await s.get(`/projects/${project.id}/hooks`, { token: null });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.deep.equal({ message: '401 Unauthorized' });
    });
  });

  describe('system hooks API', () => {
    it('is for admins: create, list, test call and delete', async () => {
      const plain = await s.createUser('hook-plain');
      const denied = await s.get('/hooks', { token: plain.token });
      expect(denied.status).to.equal(403);
      expect(denied.body).to.deep.equal({ message: '403 Forbidden' });

      const created = await s.post('/hooks', { json: { url: `${rx.url}/system-test`, token: 'sys-secret' } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.have.all.keys(
        'id',
        'url',
        'created_at',
        'push_events',
        'tag_push_events',
        'merge_requests_events',
        'repository_update_events',
        'enable_ssl_verification',
      );
      expect(created.body).to.include({ push_events: false, repository_update_events: true, merge_requests_events: false });
      expect(created.text).to.not.include('sys-secret');
      expect((await s.get('/hooks')).body.map((h: { id: number }) => h.id)).to.include(created.body.id);

      const tested = await s.get(`/hooks/${created.body.id}`);
      expect(tested.status).to.equal(200);
      expect(tested.body).to.deep.equal({ event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' });
      const sent = rx.at('/system-test', 'System Hook');
      expect(sent).to.have.length(1);
      expect(sent[0].headers['x-gitlab-token']).to.equal('sys-secret');
      expect(sent[0].body).to.deep.equal(tested.body);

      const bad = await s.post('/hooks', { json: { url: 'nope' } });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ message: { url: ['must be a valid URL'] } });

      expect((await s.delete(`/hooks/${created.body.id}`)).status).to.equal(204);
      const missing = await s.delete(`/hooks/${created.body.id}`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ message: '404 System hook Not Found' });
      const missingGet = await s.get(`/hooks/${created.body.id}`);
      expect(missingGet.status).to.equal(404);
      expect(missingGet.body).to.deep.equal({ message: '404 Not found' });
    });
  });

  describe('deliveries (local requests allowed)', () => {
    let hookId: number;
    before(async () => {
      await allowLocal(true);
      const all = {
        push_events: true,
        tag_push_events: true,
        issues_events: true,
        confidential_issues_events: true,
        merge_requests_events: true,
        note_events: true,
        confidential_note_events: true,
      };
      hookId = (await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/ok`, token: 'tok-1', ...all } })).body.id;
      await s.drainJobs();
      rx.clear();
    });
    after(async () => {
      await s.delete(`/projects/${project.id}/hooks/${hookId}`);
      await allowLocal(false);
    });
    afterEach(() => rx.clear());

    const one = (event: string) => {
      const got = rx.at('/ok', event);
      expect(got, `${event}: ${JSON.stringify(rx.received.map((r) => r.headers['x-gitlab-event']))}`).to.have.length(1);
      expect(got[0].headers['content-type']).to.equal('application/json');
      expect(got[0].headers['x-gitlab-token']).to.equal('tok-1');
      return got[0].body;
    };

    it('sends one Push Hook per pushed branch, after the push, with its commits', async () => {
      const work = await workRepo([{ 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }]);
      const push = await git(['push', repoUrl(s, project.path_with_namespace, 'root-test-token-0123456789', 'root'), 'master:master'], { cwd: work });
      expect(push.code, push.stderr).to.equal(0);
      expect(rx.received).to.have.length(0); // queued, not sent inside the push
      await s.drainJobs();
      const body = one('Push Hook');
      expect(body).to.include({
        object_kind: 'push',
        event_name: 'push',
        ref: 'refs/heads/master',
        before: '0'.repeat(40),
        total_commits_count: 2,
        project_id: project.id,
        user_username: 'root',
      });
      expect(body.after).to.equal(body.checkout_sha);
      expect(body.commits.map((c: { message: string }) => c.message)).to.deep.equal(['commit 1', 'commit 2']);
      expect(body.commits[1]).to.include.keys('id', 'timestamp', 'url', 'author', 'added', 'modified', 'removed');
      expect(body.commits[1].added).to.deep.equal(['b.txt']);
      expect(body.project).to.include({ id: project.id, path_with_namespace: project.path_with_namespace });
      expect(body.repository).to.include.keys('name', 'url', 'description', 'homepage', 'git_http_url', 'git_ssh_url', 'visibility_level');

      rx.clear();
      await commit(work, { 'a.txt': 'changed\n' }, 'commit 3');
      await git(['tag', 'v1'], { cwd: work });
      const second = await git(['push', repoUrl(s, project.path_with_namespace, 'root-test-token-0123456789', 'root'), 'master:master', 'v1'], { cwd: work });
      expect(second.code, second.stderr).to.equal(0);
      await s.drainJobs();
      const moved = one('Push Hook');
      expect(moved.total_commits_count).to.equal(1);
      expect(moved.commits[0].modified).to.deep.equal(['a.txt']);
      const tag = one('Tag Push Hook');
      expect(tag).to.include({ object_kind: 'tag_push', ref: 'refs/tags/v1', total_commits_count: 1, message: null });

      // An annotated tag's hook carries its message (GitLab's tag.message, final newline dropped).
      rx.clear();
      await git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'tag', '-a', 'v2', '-m', 'Release two\n\nwith notes'], { cwd: work });
      const third = await git(['push', repoUrl(s, project.path_with_namespace, 'root-test-token-0123456789', 'root'), 'v2'], { cwd: work });
      expect(third.code, third.stderr).to.equal(0);
      await s.drainJobs();
      expect(one('Tag Push Hook')).to.include({ ref: 'refs/tags/v2', message: 'Release two\n\nwith notes' });
    });

    it('sends Issue Hook on open and update, with the changes', async () => {
      const created = await s.post(`/projects/${project.id}/issues`, { json: { title: 'Hooked issue', labels: 'bug' } });
      expect(created.status).to.equal(201);
      await s.drainJobs();
      const opened = one('Issue Hook');
      expect(opened).to.include({ object_kind: 'issue', event_type: 'issue' });
      expect(opened.object_attributes).to.include({ action: 'open', title: 'Hooked issue', iid: created.body.iid, state: 'opened' });
      expect(opened.object_attributes.url).to.match(/\/issues\/\d+$/);
      expect(opened.labels.map((l: { title: string }) => l.title)).to.deep.equal(['bug']);
      expect(opened.user).to.include({ username: 'root' });
      rx.clear();

      await s.put(`/projects/${project.id}/issues/${created.body.iid}`, { json: { title: 'Renamed', state_event: 'close', labels: 'bug,urgent' } });
      await s.drainJobs();
      const closed = one('Issue Hook');
      expect(closed.object_attributes).to.include({ action: 'close', state: 'closed' });
      expect(closed.changes.title).to.deep.equal({ previous: 'Hooked issue', current: 'Renamed' });
      expect(closed.changes.state).to.deep.equal({ previous: 'opened', current: 'closed' });
      const titles = (list: { title: string }[]) => list.map((l) => l.title);
      expect(titles(closed.changes.labels.previous)).to.deep.equal(['bug']);
      expect(titles(closed.changes.labels.current)).to.deep.equal(['bug', 'urgent']);
      rx.clear();
      // An edit that changes nothing sends nothing.
      await s.put(`/projects/${project.id}/issues/${created.body.iid}`, { json: { title: 'Renamed' } });
      await s.drainJobs();
      expect(rx.received).to.have.length(0);
    });

    it('sends Confidential Issue Hook for a confidential issue, and Note Hook for a comment', async () => {
      const secret = await s.post(`/projects/${project.id}/issues`, { json: { title: 'Secret', confidential: true } });
      await s.drainJobs();
      expect(one('Confidential Issue Hook')).to.include({ event_type: 'confidential_issue' });
      rx.clear();
      const note = await s.post(`/projects/${project.id}/issues/${secret.body.iid}/notes`, { json: { body: 'a comment' } });
      expect(note.status).to.equal(201);
      await s.drainJobs();
      const body = one('Confidential Note Hook');
      expect(body).to.include({ object_kind: 'note', event_type: 'confidential_note', project_id: project.id });
      expect(body.object_attributes).to.include({ note: 'a comment', noteable_type: 'Issue', id: note.body.id });
      expect(body.object_attributes.url).to.match(/#note_\d+$/);
      expect(body.issue).to.include({ iid: secret.body.iid, title: 'Secret' });
    });

    it('sends Note Hook for a commit comment, with the commit', async () => {
      const head = (await s.get(`/projects/${project.id}/repository/commits/master`)).body;
      expect(head.id, 'the push test gave the project commits').to.be.a('string');
      const posted = await s.post(`/projects/${project.id}/repository/commits/${head.id}/comments`, { json: { note: 'nice commit' } });
      expect(posted.status, posted.text).to.equal(201);
      await s.drainJobs();
      const body = one('Note Hook');
      expect(body).to.include({ object_kind: 'note', event_type: 'note', project_id: project.id });
      expect(body.object_attributes).to.include({ note: 'nice commit', noteable_type: 'Commit', commit_id: head.id, noteable_id: null });
      expect(body.object_attributes.url).to.match(new RegExp(`/commit/${head.id}#note_\\d+$`));
      expect(body.commit).to.include({ id: head.id, message: head.message.replace(/\n$/, '') });
    });

    it('sends Merge Request Hook on open and on merge', async () => {
      const branch = await s.post(`/projects/${project.id}/repository/branches`, { json: { branch: 'feature', ref: 'master' } });
      expect(branch.status, branch.text).to.equal(201);
      await s.post(`/projects/${project.id}/repository/files/new.txt`, { json: { branch: 'feature', content: 'x', commit_message: 'add new' } });
      await s.drainJobs();
      rx.clear();
      const mr = await s.post(`/projects/${project.id}/merge_requests`, { json: { source_branch: 'feature', target_branch: 'master', title: 'Feature' } });
      expect(mr.status, mr.text).to.equal(201);
      await s.drainJobs();
      const opened = one('Merge Request Hook');
      expect(opened).to.include({ object_kind: 'merge_request' });
      expect(opened.object_attributes).to.include({ action: 'open', source_branch: 'feature', target_branch: 'master', iid: mr.body.iid, title: 'Feature' });
      expect(opened.object_attributes.target).to.include({ id: project.id });
      expect(opened.object_attributes.last_commit).to.include({ message: 'add new' });
      rx.clear();
      const merged = await s.put(`/projects/${project.id}/merge_requests/${mr.body.iid}/merge`, { json: {} });
      expect(merged.status, merged.text).to.equal(200);
      await s.drainJobs();
      const body = one('Merge Request Hook');
      expect(body.object_attributes).to.include({ action: 'merge', state: 'merged' });
      expect(rx.at('/ok', 'Push Hook')).to.have.length(1); // the merge moved master
    });

    it('sends the system events to system hooks, and pushes to those that enabled them', async () => {
      const sys = (await s.post('/hooks', { json: { url: `${rx.url}/ok`, token: 'tok-1', push_events: true } })).body;
      try {
        const user = await s.post('/users', { json: { email: 'sys-hooked@example.com', username: 'sys-hooked', name: 'Sys Hooked', password: 'secret-password-1' } });
        expect(user.status, user.text).to.equal(201);
        const created = await s.post('/projects', { json: { name: 'sys-hooked-project' } });
        await s.post(`/projects/${created.body.id}/members`, { json: { user_id: user.body.id, access_level: 30 } });
        const group = await s.post('/groups', { json: { name: 'sys-group', path: 'sys-group' } });
        const key = (await makeKey('ed25519')).publicKey;
        const added = await s.post(`/users/${user.body.id}/keys`, { json: { title: 'sys key', key } });
        expect(added.status, added.text).to.equal(201);
        expect((await s.delete(`/users/${user.body.id}/keys/${added.body.id}`)).status).to.equal(204);
        await s.delete(`/projects/${created.body.id}`);
        await s.delete(`/groups/${group.body.id}`);
        await s.delete(`/users/${user.body.id}`);
        await s.drainJobs();
        const names = rx.at('/ok', 'System Hook').map((r) => r.body.event_name);
        expect(names).to.include.members(['user_create', 'project_create', 'user_add_to_team', 'group_create', 'project_destroy', 'group_destroy', 'user_destroy']);
        const userCreate = rx.at('/ok', 'System Hook').find((r) => r.body.event_name === 'user_create')!.body;
        expect(userCreate).to.include({ email: 'sys-hooked@example.com', username: 'sys-hooked', user_id: user.body.id, name: 'Sys Hooked' });
        const team = rx.at('/ok', 'System Hook').find((r) => r.body.event_name === 'user_add_to_team')!.body;
        expect(team).to.include({ project_id: created.body.id, user_username: 'sys-hooked', access_level: 'Developer' });
        const keyEvents = rx
          .at('/ok', 'System Hook')
          .filter((r) => r.body.event_name.startsWith('key_'))
          .map((r) => r.body);
        expect(keyEvents.map((e) => e.event_name)).to.deep.equal(['key_create', 'key_destroy']);
        expect(keyEvents[0]).to.include({ username: 'sys-hooked', key, id: added.body.id });
      } finally {
        await s.delete(`/hooks/${sys.id}`);
      }
    });

    it('never follows a redirect', async () => {
      const hook = (await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/redirect`, issues_events: true, push_events: false } })).body;
      await s.post(`/projects/${project.id}/issues`, { json: { title: 'redirected' } });
      await s.drainJobs();
      expect(rx.at('/redirect')).to.have.length(1);
      expect(rx.at('/ok', 'Issue Hook')).to.have.length(1); // the project's other hook only
      const logs = await s.db('web_hook_logs').where({ web_hook_id: hook.id });
      expect(logs.map((l: { response_status: string }) => l.response_status)).to.deep.equal(['302']);
      await s.delete(`/projects/${project.id}/hooks/${hook.id}`);
    });

    it('retries a receiver that answers 500, then records its 200', async () => {
      const hook = (await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/flaky`, issues_events: true, push_events: false } })).body;
      await s.post(`/projects/${project.id}/issues`, { json: { title: 'retried' } });
      await s.drainJobs();
      expect(rx.at('/flaky')).to.have.length(1);
      await s.drainJobs({ at: new Date(Date.now() + 10 * 60_000) }); // past the backoff
      const got = rx.at('/flaky', 'Issue Hook');
      expect(got).to.have.length(2);
      expect(got[1].body).to.deep.equal(got[0].body);
      const logs = await s.db('web_hook_logs').where({ web_hook_id: hook.id }).orderBy('id');
      expect(logs.map((l: { response_status: string; attempt: number }) => [l.attempt, l.response_status])).to.deep.equal([
        [1, '500'],
        [2, '200'],
      ]);
      await s.delete(`/projects/${project.id}/hooks/${hook.id}`);
    });

    it('retries on a fixed schedule: 10 s, then 1 min, then 5 min', async () => {
      const hook = (await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/flaky-twice`, issues_events: true, push_events: false } })).body;
      await s.post(`/projects/${project.id}/issues`, { json: { title: 'retried twice' } });
      await s.drainJobs();
      const job = async () =>
        (await s.db('jobs').where({ kind: 'web_hook' }).orderBy('id', 'desc').first()) as { run_at: string; started_at: string; state: string; attempts: number };
      let row = await job();
      expect(row).to.include({ state: 'queued', attempts: 1 });
      const first = Date.parse(row.run_at) - Date.parse(row.started_at);
      expect(first).to.be.within(10_000, 11_000);
      const second = new Date(Date.parse(row.run_at) + 1);
      await s.drainJobs({ at: second });
      row = await job();
      expect(row).to.include({ state: 'queued', attempts: 2 });
      expect(Date.parse(row.run_at) - second.getTime()).to.equal(60_000);
      await s.drainJobs({ at: new Date(Date.parse(row.run_at) - 1000) }); // not due yet
      expect(rx.at('/flaky-twice')).to.have.length(2);
      await s.drainJobs({ at: new Date(Date.parse(row.run_at)) });
      expect((await job()).state).to.equal('succeeded');
      const logs = await s.db('web_hook_logs').where({ web_hook_id: hook.id }).orderBy('id');
      expect(logs.map((l: { response_status: string; attempt: number }) => [l.attempt, l.response_status])).to.deep.equal([
        [1, '500'],
        [2, '500'],
        [3, '200'],
      ]);
      await s.delete(`/projects/${project.id}/hooks/${hook.id}`);
    });
  });

  describe('local addresses with the setting off', () => {
    it('never delivers to 127.0.0.1 or to a name resolving to it, and records why', async () => {
      const direct = (await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/ok`, issues_events: true } })).body;
      const named = (await s.post(`/projects/${project.id}/hooks`, { json: { url: rx.url.replace('127.0.0.1', 'localhost') + '/ok', issues_events: true } })).body;
      rx.clear();
      await s.post(`/projects/${project.id}/issues`, { json: { title: 'not for local ears' } });
      await s.drainJobs();
      await s.drainJobs({ at: new Date(Date.now() + 10 * 60_000) });
      expect(rx.received).to.have.length(0);
      for (const hook of [direct, named]) {
        const logs = await s.db('web_hook_logs').where({ web_hook_id: hook.id });
        expect(logs).to.have.length(1); // refused for good, not retried
        expect(logs[0].response_status).to.equal('internal error');
        expect(logs[0].internal_error_message).to.include('Requests to the local network are not allowed');
        await s.delete(`/projects/${project.id}/hooks/${hook.id}`);
      }
    });

    it("never delivers to an address of this host's own interfaces (not loopback), and records why", async function () {
      const address = hostInterfaceAddress();
      if (address === null) return this.skip(); // no interface but loopback
      const own = await new Receiver().start(address);
      try {
        const created = await s.post(`/projects/${project.id}/hooks`, { json: { url: `${own.url}/ok`, issues_events: true } });
        expect(created.status, created.text).to.equal(201);
        await s.post(`/projects/${project.id}/issues`, { json: { title: 'not for this host either' } });
        await s.drainJobs();
        await s.drainJobs({ at: new Date(Date.now() + 10 * 60_000) });
        expect(own.received).to.have.length(0);
        const logs = await s.db('web_hook_logs').where({ web_hook_id: created.body.id });
        expect(logs).to.have.length(1);
        expect(logs[0].response_status).to.equal('internal error');
        expect(logs[0].internal_error_message).to.include('Requests to the local network are not allowed');
        await s.delete(`/projects/${project.id}/hooks/${created.body.id}`);
      } finally {
        await own.stop();
      }
    });
  });
});

describe('Webhooks with a running job queue', function () {
  this.timeout(90_000);
  let s: TestServer;
  let rx: Receiver;

  before(async () => {
    rx = await new Receiver().start();
    s = await bootServer({ WHARF_JOB_CONCURRENCY: '2' });
    await s.put('/application/settings', { json: { allow_local_requests_from_hooks_and_services: true } });
  });
  after(async () => {
    await rx?.stop();
    await s?.close();
  });

  it('delivers to a healthy receiver at once while 50 others hang', async () => {
    const project = (await s.post('/projects', { json: { name: 'many-hang' } })).body;
    for (let i = 0; i < 50; i++) await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/hang`, issues_events: true } });
    await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/ok`, issues_events: true } });
    rx.clear();
    rx.arrivals.length = 0;
    const created: number[] = [];
    for (let i = 0; i < 5; i++) {
      expect((await s.post(`/projects/${project.id}/issues`, { json: { title: `issue ${i}` } })).status).to.equal(201);
      created.push(Date.now());
      await new Promise((r) => setTimeout(r, 200));
    }
    for (let i = 0; i < 100 && rx.at('/ok', 'Issue Hook').length < 5; i++) await new Promise((r) => setTimeout(r, 50));
    const healthy = rx.arrivals.filter((a) => a.path === '/ok');
    expect(healthy, 'the healthy receiver got every delivery while the others hung').to.have.length(5);
    const lags = healthy.map((a, i) => a.at - created[i]);
    // eslint-disable-next-line no-console
    if (process.env.WHARF_TEST_LOG) console.log(`healthy hook delays behind 50 hanging ones: ${lags.join(', ')} ms`);
    expect(rx.hanging.length).to.be.at.least(50); // every hanging hook had its delivery in flight
    // Their later deliveries find no hook, and send nothing.
    for (const hook of (await s.get(`/projects/${project.id}/hooks?per_page=100`)).body as { id: number }[]) await s.delete(`/projects/${project.id}/hooks/${hook.id}`);
    for (const res of rx.hanging.splice(0)) res.destroy();
  });

  it('answers API writes while a receiver hangs on an earlier delivery', async () => {
    const project = (await s.post('/projects', { json: { name: 'hang' } })).body;
    await s.post(`/projects/${project.id}/hooks`, { json: { url: `${rx.url}/hang`, issues_events: true } });
    const first = await s.post(`/projects/${project.id}/issues`, { json: { title: 'first' } });
    expect(first.status).to.equal(201);
    for (let i = 0; i < 200 && rx.hanging.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(rx.hanging).to.have.length(1); // the delivery is in flight and unanswered
    const second = await s.post(`/projects/${project.id}/issues`, { json: { title: 'second' } });
    expect(second.status).to.equal(201);
    expect(rx.hanging[0].writableEnded).to.equal(false); // still hanging when the write answered
  });
});
