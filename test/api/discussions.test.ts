// Discussions (GitLab 10.8 lib/api/discussions.rb) on issues, merge requests and commits:
// threads, replies, edits, deletions, diff-positioned notes checked against the diff, and
// resolving, with `only_allow_merge_if_all_discussions_are_resolved` held at merge.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { openMergeRequest, repoDir, writeFiles } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';
import { head } from '../helpers/bare_git.js';

const NOTE_KEYS = ['id', 'type', 'body', 'attachment', 'author', 'created_at', 'updated_at', 'system', 'noteable_id', 'noteable_type', 'resolvable', 'noteable_iid'];
const RESOLVABLE_KEYS = [
  'id',
  'type',
  'body',
  'attachment',
  'author',
  'created_at',
  'updated_at',
  'system',
  'noteable_id',
  'noteable_type',
  'resolvable',
  'resolved',
  'resolved_by',
  'noteable_iid',
];
const DIFF_KEYS = [
  'id',
  'type',
  'body',
  'attachment',
  'author',
  'created_at',
  'updated_at',
  'system',
  'noteable_id',
  'noteable_type',
  'position',
  'resolvable',
  'resolved',
  'resolved_by',
  'noteable_iid',
];
const TWENTY = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
const CHANGED = TWENTY.replace('l2\n', 'L2\n') + 'l21\n';
const NOT_GIVEN = (text: string) => ({ message: `400 (Bad request) "${text}" not given` });
const LINE_ERRORS = `Note {:diff_line=>["can't be blank"], :line_code=>["can't be blank", "must be a valid line code"]}`;

describe('Discussions API', function () {
  this.timeout(60000);
  const { s, owner, master, dev, reporter, guest, stranger } = useServerWithRoles();
  let n = 0;

  /** A private project: lines.txt on master; `feature` changes line 2 and adds line 21; an MR by dev; an issue by reporter. */
  async function setup(settings: Record<string, unknown> = {}) {
    const p = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `d${++n}`, visibility: 'private', ...settings });
    const dir = repoDir(s, p.path_with_namespace);
    await writeFiles(s, { id: p.id, dir }, 'master', { 'lines.txt': TWENTY }, { token: owner.token, message: 'Initial' });
    await writeFiles(s, { id: p.id, dir }, 'feature', { 'lines.txt': CHANGED }, { token: owner.token, message: 'Change', start: 'master' });
    const mr = await openMergeRequest(s, p.id, { source_branch: 'feature', target_branch: 'master', title: 'Feature' }, dev.token);
    const issue = (await s.post(`/projects/${p.id}/issues`, { token: reporter.token, json: { title: 'Talk' } })).body;
    return {
      id: p.id as number,
      dir,
      mr,
      issue,
      issueUrl: `/projects/${p.id}/issues/${issue.iid}/discussions`,
      mrUrl: `/projects/${p.id}/merge_requests/${mr.iid}/discussions`,
    };
  }

  describe('on issues', () => {
    it('lists plain notes as individual discussions and started ones with their replies, in order', async () => {
      const p = await setup();
      const plain = await s.post(`/projects/${p.id}/issues/${p.issue.iid}/notes`, { token: guest.token, json: { body: 'plain' } });
      expect(plain.status).to.equal(201);
      expect(Object.keys(plain.body)).to.deep.equal(NOTE_KEYS); // the notes API answers as before
      const started = await s.post(p.issueUrl, { token: reporter.token, json: { body: 'Let us discuss' } });
      expect(started.status, started.text).to.equal(201);
      expect(started.body.id).to.match(/^[0-9a-f]{40}$/);
      expect(started.body.individual_note).to.equal(false);
      expect(started.body.notes).to.have.length(1);
      const first = started.body.notes[0];
      expect(Object.keys(first)).to.deep.equal(NOTE_KEYS);
      expect(first).to.include({
        type: 'DiscussionNote',
        body: 'Let us discuss',
        system: false,
        noteable_id: p.issue.id,
        noteable_type: 'Issue',
        resolvable: false,
        noteable_iid: p.issue.iid,
      });
      expectSchema([first], 'public_api/v4/notes.json');

      const reply = await s.post(`${p.issueUrl}/${started.body.id}/notes`, { token: guest.token, json: { body: 'Agreed' } });
      expect(reply.status, reply.text).to.equal(201);
      expect(reply.body).to.include({ type: 'DiscussionNote', body: 'Agreed', noteable_type: 'Issue' });
      expect(reply.body.author.username).to.equal('guest');

      const list = await s.get(p.issueUrl, { token: reporter.token });
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-total')).to.equal('2');
      expect(list.body.map((d: any) => [d.individual_note, d.notes.map((x: any) => x.body)])).to.deep.equal([
        [true, ['plain']],
        [false, ['Let us discuss', 'Agreed']],
      ]);
      expect(list.body[0].id).to.match(/^[0-9a-f]{40}$/);
      expect(list.body[0].id).to.not.equal(list.body[1].id);
      const paged = await s.get(p.issueUrl, { token: reporter.token, query: { per_page: 1, page: 2 } });
      expect(paged.body.map((d: any) => d.id)).to.deep.equal([started.body.id]);
      expect(paged.headers.get('x-total-pages')).to.equal('2');

      const single = await s.get(`${p.issueUrl}/${started.body.id}`, { token: reporter.token });
      expect(single.body).to.deep.equal(list.body[1]);
      const notes = await s.get(`${p.issueUrl}/${started.body.id}/notes`, { token: reporter.token });
      expect(notes.body).to.deep.equal(list.body[1].notes);
      const one = await s.get(`${p.issueUrl}/${started.body.id}/notes/${reply.body.id}`, { token: reporter.token });
      expect(one.body).to.deep.equal(reply.body);
      // Replies count as the issue's comments; the notes API lists them too.
      expect((await s.get(`/projects/${p.id}/issues/${p.issue.iid}`, { token: reporter.token })).body.user_notes_count).to.equal(3);
      const viaNotes = await s.get(`/projects/${p.id}/issues/${p.issue.iid}/notes`, { token: reporter.token, query: { sort: 'asc' } });
      expect(viaNotes.body.map((x: any) => x.type)).to.deep.equal([null, 'DiscussionNote', 'DiscussionNote']);
    });

    it('edits and deletes a note of a thread (its author or a master), and refuses others', async () => {
      const p = await setup();
      const d = (await s.post(p.issueUrl, { token: reporter.token, json: { body: 'first' } })).body;
      const noteUrl = `${p.issueUrl}/${d.id}/notes/${d.notes[0].id}`;
      let r = await s.put(noteUrl, { token: reporter.token, json: { body: 'edited' } });
      expect([r.status, r.body.body]).to.deep.equal([200, 'edited']);
      r = await s.put(noteUrl, { token: guest.token, json: { body: 'hijack' } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.put(noteUrl, { token: reporter.token, json: { body: '   ' } });
      expect([r.status, r.body]).to.deep.equal([400, NOT_GIVEN(`Failed to save note {:note=>["can't be blank"]}`)]);
      r = await s.put(noteUrl, { token: reporter.token, json: {} });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'body, resolved are missing, exactly one parameter must be provided' }]);
      r = await s.put(noteUrl, { token: reporter.token, json: { body: 'x', resolved: true } });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'body, resolved are mutually exclusive' }]);
      r = await s.put(noteUrl, { token: reporter.token, json: { resolved: true } });
      expect([r.status, r.body]).to.deep.equal([400, NOT_GIVEN('Note is not resolvable')]);
      r = await s.delete(noteUrl, { token: guest.token });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.delete(noteUrl, { token: master.token });
      expect(r.status).to.equal(204);
      r = await s.get(`${p.issueUrl}/${d.id}`, { token: reporter.token });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Discussion Not Found' }]);
      r = await s.get(noteUrl, { token: reporter.token });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Not found' }]);
    });

    it("answers 10.8's errors with their statuses and bodies", async () => {
      const p = await setup();
      const plain = (await s.post(`/projects/${p.id}/issues/${p.issue.iid}/notes`, { token: reporter.token, json: { body: 'plain' } })).body;
      const individual = (await s.get(p.issueUrl, { token: reporter.token })).body[0].id;
      const unknown = 'f'.repeat(40);
      const cases: [string, string, Record<string, unknown> | undefined, string | null, number, unknown][] = [
        ['POST', `${p.issueUrl}/${individual}/notes`, { body: 'reply' }, reporter.token, 400, NOT_GIVEN('Discussion is an individual note.')],
        ['POST', `${p.issueUrl}/${unknown}/notes`, { body: 'reply' }, reporter.token, 404, { message: '404 Discussion Not Found' }],
        ['GET', `${p.issueUrl}/${unknown}`, undefined, reporter.token, 404, { message: '404 Discussion Not Found' }],
        ['GET', `${p.issueUrl}/${unknown}/notes`, undefined, reporter.token, 404, { message: '404 Notes Not Found' }],
        ['POST', p.issueUrl, { body: '  ' }, reporter.token, 400, NOT_GIVEN(`Note {:note=>["can't be blank"]}`)],
        ['POST', p.issueUrl, {}, reporter.token, 400, { error: 'body is missing' }],
        ['POST', p.issueUrl, { body: 'x' }, null, 401, { message: '401 Unauthorized' }],
        ['GET', p.issueUrl, undefined, stranger.token, 404, { message: '404 Project Not Found' }],
        ['GET', `/projects/${p.id}/issues/999/discussions`, undefined, reporter.token, 404, { message: '404 Not found' }],
        ['GET', `/projects/${p.id}/issues/abc/discussions`, undefined, reporter.token, 400, { error: 'noteable_id is invalid' }],
        ['PUT', `${p.issueUrl}/${individual}/notes/${plain.id + 1000}`, { body: 'x' }, reporter.token, 404, { message: '404 Not found' }],
        [
          'POST',
          p.issueUrl,
          { body: 'x', position: { base_sha: 'a', start_sha: 'b', head_sha: 'c', position_type: 'text', new_path: 'x', new_line: 1 } },
          reporter.token,
          400,
          NOT_GIVEN('Note {:noteable_type=>["is not included in the list"]}'),
        ],
      ];
      for (const [method, url, json, token, status, body] of cases) {
        const r = await s.request(method, url, { token, json });
        expect([r.status, r.body], `${method} ${url} ${JSON.stringify(json)}`).to.deep.equal([status, body]);
      }
      // Nothing was written by the refusals.
      expect((await s.get(p.issueUrl, { token: reporter.token })).body).to.have.length(1);
    });

    it("refuses a locked issue's discussions to non-members and an archived project's to everyone", async () => {
      const p = await setup({ visibility: 'public' });
      const d = (await s.post(p.issueUrl, { token: reporter.token, json: { body: 'open' } })).body;
      expect((await s.put(`/projects/${p.id}/issues/${p.issue.iid}`, { token: master.token, json: { discussion_locked: true } })).status).to.equal(200);
      let r = await s.post(p.issueUrl, { token: stranger.token, json: { body: 'locked out' } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.post(`${p.issueUrl}/${d.id}/notes`, { token: stranger.token, json: { body: 'locked out' } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.post(`${p.issueUrl}/${d.id}/notes`, { token: guest.token, json: { body: 'member' } });
      expect(r.status).to.equal(201);
      expect((await s.post(`/projects/${p.id}/archive`, { token: owner.token })).status).to.equal(201);
      r = await s.post(p.issueUrl, { token: owner.token, json: { body: 'archived' } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.get(p.issueUrl, { token: stranger.token });
      expect(r.status).to.equal(200);
    });
  });

  describe('on merge requests', () => {
    it('makes discussion notes resolvable; the author and developers resolve a thread, others may not', async () => {
      const p = await setup();
      const d = (await s.post(p.mrUrl, { token: reporter.token, json: { body: 'Please fix' } })).body;
      const note = d.notes[0];
      expect(Object.keys(note)).to.deep.equal(RESOLVABLE_KEYS);
      expect(note).to.include({
        type: 'DiscussionNote',
        noteable_type: 'MergeRequest',
        noteable_id: p.mr.id,
        noteable_iid: p.mr.iid,
        resolvable: true,
        resolved: false,
        resolved_by: null,
      });

      let r = await s.put(`${p.mrUrl}/${d.id}`, { token: reporter.token, json: { resolved: true } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.put(`${p.mrUrl}/${d.id}`, { token: dev.token, json: { resolved: true } }); // the merge request's author
      expect(r.status, r.text).to.equal(200);
      expect(r.body.notes[0]).to.include({ resolved: true });
      expect(r.body.notes[0].resolved_by.username).to.equal('dev');
      // Every discussion resolved: GitLab's system note says so.
      const all = (await s.get(p.mrUrl, { token: reporter.token })).body;
      expect(all.map((x: any) => [x.individual_note, x.notes[0].system, x.notes[0].body])).to.deep.equal([
        [false, false, 'Please fix'],
        [true, true, 'resolved all discussions'],
      ]);
      expect(all[1].notes[0].resolvable).to.equal(false);

      r = await s.put(`${p.mrUrl}/${d.id}`, { token: master.token, json: { resolved: false } });
      expect(r.status).to.equal(200);
      expect(r.body.notes[0]).to.include({ resolved: false, resolved_by: null });
      r = await s.put(`${p.mrUrl}/${d.id}`, { token: master.token, json: {} });
      expect([r.status, r.body]).to.deep.equal([400, { error: 'resolved is missing' }]);
      r = await s.put(`${p.mrUrl}/${'0'.repeat(40)}`, { token: master.token, json: { resolved: true } });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 Discussion Not Found' }]);
      // An individual note is no resolvable discussion.
      r = await s.put(`${p.mrUrl}/${all[1].id}`, { token: master.token, json: { resolved: true } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);

      // One note: its author may resolve it; a reporter may not resolve another's; a guest
      // of a private project does not see merge requests at all.
      const noteUrl = `${p.mrUrl}/${d.id}/notes/${note.id}`;
      const other = (await s.post(p.mrUrl, { token: master.token, json: { body: 'Mine' } })).body;
      r = await s.put(`${p.mrUrl}/${other.id}/notes/${other.notes[0].id}`, { token: reporter.token, json: { resolved: true } });
      expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      r = await s.put(noteUrl, { token: guest.token, json: { resolved: true } });
      expect([r.status, r.body]).to.deep.equal([404, { message: '404 merge_requests Not Found' }]);
      r = await s.put(noteUrl, { token: reporter.token, json: { resolved: true } });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ resolved: true });
      expect(r.body.resolved_by.username).to.equal('reporter');
    });

    it('places DiffNotes on lines of the diff (added, removed, unchanged), replies keep the position', async () => {
      const p = await setup();
      const refs = (await s.get(`/projects/${p.id}/merge_requests/${p.mr.iid}`, { token: reporter.token })).body.diff_refs;
      expect(refs.head_sha).to.equal(head(p.dir, 'feature'));
      const base = { base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha, position_type: 'text', old_path: 'lines.txt', new_path: 'lines.txt' };
      const lines: Record<string, unknown>[] = [{ new_line: 2 }, { old_line: 2 }, { old_line: 3, new_line: 3 }, { new_line: 21 }];
      for (const line of lines) {
        const r = await s.post(p.mrUrl, { token: reporter.token, json: { body: `on ${JSON.stringify(line)}`, position: { ...base, ...line } } });
        expect(r.status, r.text).to.equal(201);
        const note = r.body.notes[0];
        expect(Object.keys(note)).to.deep.equal(DIFF_KEYS);
        expect(note.type).to.equal('DiffNote');
        expect(note.position).to.deep.equal({ ...base, old_line: null, new_line: null, ...line });
        expect(Object.keys(note.position)).to.deep.equal(['base_sha', 'start_sha', 'head_sha', 'old_path', 'new_path', 'position_type', 'old_line', 'new_line']);
      }
      // As a form, the way python-gitlab sends nested parameters.
      const form = await s.post(p.mrUrl, {
        token: reporter.token,
        form: {
          body: 'form',
          'position[base_sha]': refs.base_sha,
          'position[start_sha]': refs.start_sha,
          'position[head_sha]': refs.head_sha,
          'position[position_type]': 'text',
          'position[new_path]': 'lines.txt',
          'position[new_line]': '2',
        },
      });
      expect(form.status, form.text).to.equal(201);
      expect(form.body.notes[0].position).to.include({ new_line: 2, old_line: null, old_path: null });
      const reply = await s.post(`${p.mrUrl}/${form.body.id}/notes`, { token: dev.token, json: { body: 'reply on the line' } });
      expect(reply.status, reply.text).to.equal(201);
      expect(reply.body.type).to.equal('DiffNote');
      expect(reply.body.position).to.deep.equal(form.body.notes[0].position);
    });

    it('refuses positions that are incomplete, off the diff, of other refs, or malformed', async () => {
      const p = await setup();
      const refs = (await s.get(`/projects/${p.id}/merge_requests/${p.mr.iid}`, { token: reporter.token })).body.diff_refs;
      const base = { base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha, position_type: 'text', new_path: 'lines.txt' };
      const cases: [Record<string, unknown>, unknown][] = [
        [{ ...base, new_line: 10 }, NOT_GIVEN(LINE_ERRORS)], // unchanged and outside every hunk
        [{ ...base, new_line: 2, old_line: 2 }, NOT_GIVEN(LINE_ERRORS)],
        [{ ...base, new_path: 'missing.txt', new_line: 2 }, NOT_GIVEN(LINE_ERRORS)],
        [{ ...base }, NOT_GIVEN(`Note {:diff_line=>["can't be blank"], :line_code=>["can't be blank", "must be a valid line code"], :position=>["is invalid"]}`)],
        [{ ...base, head_sha: refs.start_sha, new_line: 2 }, NOT_GIVEN('Note {:position=>["is invalid"]}')],
        [{ ...base, position_type: 'image', width: 1 }, NOT_GIVEN('Note {:position=>["is invalid"]}')],
        [{ start_sha: 'a', head_sha: 'b', position_type: 'text' }, { error: 'position[base_sha] is missing' }],
        [{ ...base, position_type: 'video' }, { error: 'position[position_type] does not have a valid value' }],
        [{ ...base, new_line: 'two' }, { error: 'position[new_line] is invalid' }],
      ];
      for (const [position, body] of cases) {
        const r = await s.post(p.mrUrl, { token: reporter.token, json: { body: 'x', position } });
        expect([r.status, r.body], JSON.stringify(position)).to.deep.equal([400, body]);
      }
      const bad = await s.post(p.mrUrl, { token: reporter.token, json: { body: 'x', position: 'line 2' } });
      expect([bad.status, bad.body]).to.deep.equal([400, { error: 'position is invalid' }]);
      expect((await s.get(p.mrUrl, { token: reporter.token })).body).to.deep.equal([]);
    });

    it('holds a merge that only_allow_merge_if_all_discussions_are_resolved forbids until the discussion is resolved', async () => {
      const p = await setup({ only_allow_merge_if_all_discussions_are_resolved: true });
      // A plain comment is no discussion to resolve.
      expect((await s.post(`/projects/${p.id}/merge_requests/${p.mr.iid}/notes`, { token: reporter.token, json: { body: 'LGTM' } })).status).to.equal(201);
      const d = (await s.post(p.mrUrl, { token: reporter.token, json: { body: 'Blocker' } })).body;
      const mergeUrl = `/projects/${p.id}/merge_requests/${p.mr.iid}/merge`;
      let r = await s.put(mergeUrl, { token: owner.token });
      expect([r.status, r.body]).to.deep.equal([405, { message: '405 Method Not Allowed' }]);
      expect(head(p.dir, 'master')).to.not.equal(head(p.dir, 'feature'));
      r = await s.put(`${p.mrUrl}/${d.id}`, { token: master.token, json: { resolved: true } });
      expect(r.status).to.equal(200);
      r = await s.put(mergeUrl, { token: owner.token });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.state).to.equal('merged');
    });

    it('does not hold a merge when the project does not ask for it', async () => {
      const p = await setup();
      expect((await s.post(p.mrUrl, { token: reporter.token, json: { body: 'Open question' } })).status).to.equal(201);
      const r = await s.put(`/projects/${p.id}/merge_requests/${p.mr.iid}/merge`, { token: owner.token });
      expect([r.status, r.body.state]).to.deep.equal([200, 'merged']);
    });
  });

  describe('on project snippets', () => {
    it('starts, lists and replies to a snippet thread (not resolvable); a private snippet is 404 to strangers', async () => {
      const p = await setup();
      const snippet = await s.post(`/projects/${p.id}/snippets`, { token: reporter.token, json: { title: 'Snip', file_name: 'a.rb', code: 'puts 1', visibility: 'private' } });
      expect(snippet.status, snippet.text).to.equal(201);
      const url = `/projects/${p.id}/snippets/${snippet.body.id}/discussions`;
      const started = await s.post(url, { token: guest.token, json: { body: 'About this snippet' } });
      expect(started.status, started.text).to.equal(201);
      expect(started.body.individual_note).to.equal(false);
      expect(started.body.notes[0]).to.include({
        type: 'DiscussionNote',
        body: 'About this snippet',
        noteable_type: 'Snippet',
        noteable_id: snippet.body.id,
        resolvable: false,
        noteable_iid: null,
      });
      const reply = await s.post(`${url}/${started.body.id}/notes`, { token: reporter.token, json: { body: 'Thanks' } });
      expect(reply.status, reply.text).to.equal(201);
      const listed = await s.get(url, { token: guest.token });
      expect(listed.status).to.equal(200);
      expect(listed.body.map((d: { notes: { body: string }[] }) => d.notes.map((n) => n.body))).to.deep.equal([['About this snippet', 'Thanks']]);
      const resolve = await s.put(`${url}/${started.body.id}`, { token: reporter.token, json: { resolved: true } });
      expect(resolve.status).to.equal(404); // only merge request discussions resolve: no such route
      const hidden = await s.get(url, { token: stranger.token });
      expect([hidden.status, hidden.body]).to.deep.equal([404, { message: '404 Project Not Found' }]);
      const missing = await s.get(`/projects/${p.id}/snippets/999999/discussions`, { token: reporter.token });
      expect([missing.status, missing.body]).to.deep.equal([404, { message: '404 Not found' }]);
    });
  });

  describe('on commits', () => {
    it('discusses a commit by sha or ref, on a line of its own diff too', async () => {
      const p = await setup();
      const sha = head(p.dir, 'feature');
      const url = `/projects/${p.id}/repository/commits/${sha}/discussions`;
      const d = await s.post(url, { token: reporter.token, json: { body: 'Nice commit' } });
      expect(d.status, d.text).to.equal(201);
      expect(d.body.notes[0]).to.include({ type: 'DiscussionNote', noteable_type: 'Commit', noteable_id: null, noteable_iid: null, resolvable: false });
      const parent = head(p.dir, 'master');
      const position = { base_sha: parent, start_sha: parent, head_sha: sha, position_type: 'text', new_path: 'lines.txt', new_line: 21 };
      const onLine = await s.post(`/projects/${p.id}/repository/commits/feature/discussions`, { token: reporter.token, json: { body: 'here', position } });
      expect(onLine.status, onLine.text).to.equal(201);
      expect(onLine.body.notes[0].position).to.include({ new_line: 21, head_sha: sha });
      const wrong = await s.post(url, { token: reporter.token, json: { body: 'x', position: { ...position, head_sha: parent } } });
      expect([wrong.status, wrong.body]).to.deep.equal([400, NOT_GIVEN('Note {:commit_id=>["does not match the diff refs"]}')]);
      const list = await s.get(`/projects/${p.id}/repository/commits/${sha.slice(0, 8)}/discussions`, { token: reporter.token });
      expect(list.body.map((x: any) => x.notes[0].body)).to.deep.equal(['Nice commit', 'here']);
      const reply = await s.post(`${url}/${d.body.id}/notes`, { token: guest.token, json: { body: 'a guest may not read the code' } });
      expect([reply.status, reply.body]).to.deep.equal([404, { message: '404 commits Not Found' }]);
      const unknown = await s.get(`/projects/${p.id}/repository/commits/${'0'.repeat(40)}/discussions`, { token: reporter.token });
      expect([unknown.status, unknown.body]).to.deep.equal([404, { message: '404 commits Not Found' }]);
      // Not the merge request's: its discussions are its own.
      expect((await s.get(p.mrUrl, { token: reporter.token })).body).to.deep.equal([]);
    });
  });
});
