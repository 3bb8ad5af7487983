// Tags and releases (GitLab 10.8 lib/api/tags.rb): creating lightweight and annotated tags
// (checked with `git cat-file -p`), deleting them, release notes, the tag push events, and
// every refusal with its status and body.
import { expect } from 'chai';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { repoDir } from '../helpers/projects.js';
import { expectSchema } from '../helpers/schema.js';
import { expectFsckClean, git, head, refState } from '../helpers/bare_git.js';

describe('Tags and releases API', () => {
  const { s, owner, master, dev, reporter, guest, stranger } = useServerWithRoles();
  let n = 0;

  /** A private project of owner's with one commit on master (and one on `feature`). */
  async function project(json: Record<string, unknown> = {}) {
    const p = await projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `t${++n}`, visibility: 'private', ...json });
    for (const [branch, start] of [
      ['master', undefined],
      ['feature', 'master'],
    ] as const) {
      const r = await s.post(`/projects/${p.id}/repository/commits`, {
        token: owner.token,
        json: {
          branch,
          ...(start ? { start_branch: start } : {}),
          commit_message: `Commit on ${branch}\n\nbody`,
          actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }],
        },
      });
      expect(r.status, r.text).to.equal(201);
    }
    return { id: p.id as number, dir: repoDir(s, p.path_with_namespace), tags: `/projects/${p.id}/repository/tags` };
  }

  const create = (p: { tags: string }, json: Record<string, unknown>, token = master.token) => s.post(p.tags, { token, json });

  describe('POST /projects/:id/repository/tags', () => {
    it('creates a lightweight tag at a branch, a sha or another tag', async () => {
      const p = await project();
      const master = head(p.dir, 'master');
      let r = await create(p, { tag_name: 'v1.0', ref: 'master' });
      expect(r.status, r.text).to.equal(201);
      expectSchema(r.body, 'public_api/v4/tag.json');
      expect(r.body).to.include({ name: 'v1.0', message: null, target: master, release: null });
      expect(r.body.commit.id).to.equal(master);
      expect(git(p.dir, ['rev-parse', 'refs/tags/v1.0']).trim()).to.equal(master);
      expect(git(p.dir, ['cat-file', '-t', 'v1.0']).trim()).to.equal('commit');

      const feature = head(p.dir, 'feature');
      r = await create(p, { tag_name: 'by-sha', ref: feature.slice(0, 10) });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.target).to.equal(feature);
      r = await create(p, { tag_name: 'of-tag', ref: 'v1.0' });
      expect(r.body.target).to.equal(master);
      expectFsckClean(p.dir);
    });

    it('creates an annotated tag object (git cat-file -p) when a message is given, stripped', async () => {
      const p = await project();
      const commit = head(p.dir, 'master');
      const r = await create(p, { tag_name: 'v7.1.0', ref: 'master', message: '  Release 7.1.0\n\nNotes.\n  ' });
      expect(r.status, r.text).to.equal(201);
      expectSchema(r.body, 'public_api/v4/tag.json');
      const tagObject = git(p.dir, ['rev-parse', 'refs/tags/v7.1.0']).trim();
      expect(tagObject).to.not.equal(commit);
      expect(r.body).to.include({ name: 'v7.1.0', message: 'Release 7.1.0\n\nNotes.', target: tagObject });
      expect(r.body.commit.id).to.equal(commit);
      expect(git(p.dir, ['cat-file', '-t', tagObject]).trim()).to.equal('tag');
      const printed = git(p.dir, ['cat-file', '-p', tagObject]);
      const lines = printed.split('\n');
      expect(lines.slice(0, 3)).to.deep.equal([`object ${commit}`, 'type commit', 'tag v7.1.0']);
      expect(lines[3]).to.match(/^tagger Master <master@example\.com> \d+ \+0000$/);
      expect(printed.slice(printed.indexOf('\n\n') + 2)).to.equal('Release 7.1.0\n\nNotes.\n');
      expect(git(p.dir, ['for-each-ref', '--format=%(contents:subject)', 'refs/tags/v7.1.0']).trim()).to.equal('Release 7.1.0');
      expectFsckClean(p.dir);
      // Read back as git wrote it.
      const got = await s.get(`${p.tags}/v7.1.0`, { token: reporter.token });
      expect(got.body).to.deep.equal(r.body);
    });

    it("stores release_description as the new tag's release", async () => {
      const p = await project();
      const r = await create(p, { tag_name: 'v2', ref: 'master', release_description: 'Wow' });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.release).to.deep.equal({ tag_name: 'v2', description: 'Wow' });
      const list = await s.get(p.tags, { token: reporter.token });
      expect(list.body.map((t: any) => t.release)).to.deep.equal([{ tag_name: 'v2', description: 'Wow' }]);
      expectSchema(list.body, 'public_api/v4/tags.json');
    });

    it('takes names with slashes (URL-encoded in the tag routes)', async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'release/v1', ref: 'master' })).status).to.equal(201);
      const got = await s.get(`${p.tags}/release%2Fv1`, { token: reporter.token });
      expect(got.status).to.equal(200);
      expect(got.body.name).to.equal('release/v1');
      const release = await s.post(`${p.tags}/release%2Fv1/release`, { token: master.token, json: { description: 'slash' } });
      expect(release.status, release.text).to.equal(201);
      expect((await s.delete(`${p.tags}/release%2Fv1`, { token: master.token })).status).to.equal(204);
      expect(git(p.dir, ['tag', '--list']).trim()).to.equal('');
      // The folder the tag lived in went with it: a tag of its old folder's name can be made.
      expect((await create(p, { tag_name: 'release', ref: 'master' })).status).to.equal(201);
    });

    it("answers 10.8's 400s and leaves the repository untouched", async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'taken', ref: 'master' })).status).to.equal(201);
      expect((await create(p, { tag_name: 'a/b', ref: 'master' })).status).to.equal(201);
      const before = refState(p.dir);
      const cases: [Record<string, unknown>, number, unknown][] = [
        [{ tag_name: 'new design', ref: 'master' }, 400, { message: 'Tag name invalid' }],
        [{ tag_name: 'bad..name', ref: 'master' }, 400, { message: 'Tag name invalid' }],
        [{ tag_name: 'refs/heads/x', ref: 'master' }, 400, { message: 'Tag name invalid' }],
        [{ tag_name: 'taken', ref: 'master' }, 400, { message: 'Tag taken already exists' }],
        [{ tag_name: 'new_design3', ref: 'foo' }, 400, { message: 'Target foo is invalid' }],
        [{ tag_name: 'a', ref: 'master' }, 400, { message: "Tag name invalid: a tag called 'a/b' is in the way" }],
        [{ ref: 'master' }, 400, { error: 'tag_name is missing' }],
        [{ tag_name: 'x' }, 400, { error: 'ref is missing' }],
      ];
      for (const [json, status, body] of cases) {
        const r = await create(p, json);
        expect([r.status, r.body], JSON.stringify(json)).to.deep.equal([status, body]);
      }
      // A developer may create tags, not replace or delete one (only masters change existing tags).
      const devCreates = await create(p, { tag_name: 'dev-tag', ref: 'master' }, dev.token);
      expect(devCreates.status, devCreates.text).to.equal(201);
      const devTaken = await create(p, { tag_name: 'taken', ref: 'master' }, dev.token);
      expect([devTaken.status, devTaken.body]).to.deep.equal([400, { message: 'You are not allowed to change existing tags on this project.' }]);
      const after = await s.delete(`${p.tags}/taken`, { token: dev.token });
      expect([after.status, after.body]).to.deep.equal([400, { message: 'You are not allowed to change existing tags on this project.' }]);
      git(p.dir, ['update-ref', '-d', 'refs/tags/dev-tag']);
      expect(refState(p.dir)).to.equal(before);
      expectFsckClean(p.dir);
    });

    it('needs push rights after download_code and the parameters (404, 403, 401)', async () => {
      const p = await project();
      const cases: [string | null, number, unknown][] = [
        [reporter.token, 403, { message: '403 Forbidden' }],
        [guest.token, 403, { message: '403 Forbidden' }],
        [stranger.token, 404, { message: '404 Project Not Found' }],
        [null, 404, { message: '404 Project Not Found' }],
      ];
      for (const [token, status, body] of cases) {
        const r = await create(p, { tag_name: 'nope', ref: 'master' }, token as string);
        expect([r.status, r.body]).to.deep.equal([status, body]);
      }
      // Grape validates before the endpoint asks push rights: a reporter's bad request is a 400.
      const r = await create(p, { ref: 'master' }, reporter.token);
      expect([r.status, r.body]).to.deep.equal([400, { error: 'tag_name is missing' }]);
      const pub = await project({ visibility: 'public' });
      const anon = await create(pub, { tag_name: 'nope', ref: 'master' }, null as unknown as string);
      expect([anon.status, anon.body]).to.deep.equal([401, { message: '401 Unauthorized' }]);
      expect(git(p.dir, ['tag', '--list']).trim()).to.equal('');
    });

    it('is refused on an archived project, to admins as well', async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'kept', ref: 'master' })).status).to.equal(201);
      expect((await s.post(`/projects/${p.id}/archive`, { token: owner.token })).status).to.equal(201);
      for (const token of [owner.token, undefined]) {
        const r = await s.post(p.tags, { token, json: { tag_name: 'late', ref: 'master' } });
        expect([r.status, r.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
        const d = await s.delete(`${p.tags}/kept`, { token });
        expect([d.status, d.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
        const rel = await s.post(`${p.tags}/kept/release`, { token, json: { description: 'x' } });
        expect([rel.status, rel.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      }
      expect(git(p.dir, ['tag', '--list']).trim()).to.equal('kept');
    });

    it('lets exactly one of two concurrent creations of a name win', async () => {
      const p = await project();
      const answers = await Promise.all([create(p, { tag_name: 'race', ref: 'master' }), create(p, { tag_name: 'race', ref: 'feature', message: 'annotated' })]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).to.deep.equal([201, 400]);
      expect(answers.find((a) => a.status === 400)!.body).to.deep.equal({ message: 'Tag race already exists' });
      const winner = answers.find((a) => a.status === 201)!.body;
      expect(git(p.dir, ['rev-parse', 'refs/tags/race']).trim()).to.equal(winner.target);
      expectFsckClean(p.dir);
    });
  });

  describe('tag push events', () => {
    it('records a created and a removed tag as pushes of a tag', async () => {
      const p = await project();
      const commit = head(p.dir, 'master');
      expect((await create(p, { tag_name: 'ev', ref: 'master', message: 'annotated' })).status).to.equal(201);
      const tagObject = git(p.dir, ['rev-parse', 'refs/tags/ev']).trim();
      expect((await s.delete(`${p.tags}/ev`, { token: master.token })).status).to.equal(204);
      const r = await s.get(`/projects/${p.id}/events`, { token: owner.token, query: { action: 'pushed', sort: 'asc' } });
      const tagEvents = r.body.filter((e: any) => e.push_data.ref_type === 'tag');
      expect(tagEvents.map((e: any) => [e.action_name, e.author_id, e.push_data])).to.deep.equal([
        [
          'pushed new',
          master.user.id,
          { commit_count: 1, action: 'created', ref_type: 'tag', commit_from: null, commit_to: tagObject, ref: 'ev', commit_title: 'Commit on master' },
        ],
        ['deleted', master.user.id, { commit_count: 0, action: 'removed', ref_type: 'tag', commit_from: commit, commit_to: null, ref: 'ev', commit_title: null }],
      ]);
    });
  });

  describe('DELETE /projects/:id/repository/tags/:tag_name', () => {
    it('deletes the tag and its release (204), then 404 Tag Not Found', async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'gone', ref: 'master', release_description: 'notes' })).status).to.equal(201);
      const r = await s.delete(`${p.tags}/gone`, { token: master.token });
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect(git(p.dir, ['tag', '--list']).trim()).to.equal('');
      expect(await s.db('releases').where({ project_id: p.id })).to.deep.equal([]);
      const again = await s.delete(`${p.tags}/gone`, { token: master.token });
      expect([again.status, again.body]).to.deep.equal([404, { message: '404 Tag Not Found' }]);
      // A new tag of that name starts without the old release.
      expect((await create(p, { tag_name: 'gone', ref: 'master' })).body.release).to.equal(null);
    });

    it('answers 412 when the tagged commit changed after If-Unmodified-Since, and 403 to a reporter', async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'keep', ref: 'master' })).status).to.equal(201);
      const r = await s.delete(`${p.tags}/keep`, { token: master.token, headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect([r.status, r.body]).to.deep.equal([412, { message: '412 Precondition Failed' }]);
      const rep = await s.delete(`${p.tags}/keep`, { token: reporter.token });
      expect([rep.status, rep.body]).to.deep.equal([403, { message: '403 Forbidden' }]);
      expect(git(p.dir, ['tag', '--list']).trim()).to.equal('keep');
    });
  });

  describe('POST/PUT /projects/:id/repository/tags/:tag_name/release', () => {
    it('adds release notes (201), refuses a second (409), changes them (200)', async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'v1', ref: 'master' })).status).to.equal(201);
      const url = `${p.tags}/v1/release`;
      let r = await s.post(url, { token: dev.token, json: { description: 'Awesome release!' } });
      expect(r.status, r.text).to.equal(201);
      expectSchema(r.body, 'public_api/v4/release.json');
      expect(r.body).to.deep.equal({ tag_name: 'v1', description: 'Awesome release!' });
      r = await s.post(url, { token: dev.token, json: { description: 'again' } });
      expect([r.status, r.body]).to.deep.equal([409, { message: 'Release already exists' }]);
      r = await s.put(url, { token: dev.token, json: { description: 'Changed' } });
      expect([r.status, r.body]).to.deep.equal([200, { tag_name: 'v1', description: 'Changed' }]);
      const tag = await s.get(`${p.tags}/v1`, { token: reporter.token });
      expect(tag.body.release).to.deep.equal({ tag_name: 'v1', description: 'Changed' });
    });

    it('answers 404 for a missing tag or release, 400 without a description, 403 to a reporter', async () => {
      const p = await project();
      expect((await create(p, { tag_name: 'bare', ref: 'master' })).status).to.equal(201);
      const cases: [string, string, Record<string, unknown>, string, number, unknown][] = [
        ['post', 'unknown', { description: 'x' }, master.token, 404, { message: 'Tag does not exist' }],
        ['put', 'unknown', { description: 'x' }, master.token, 404, { message: 'Tag does not exist' }],
        ['put', 'bare', { description: 'x' }, master.token, 404, { message: 'Release does not exist' }],
        ['post', 'bare', {}, master.token, 400, { error: 'description is missing' }],
        ['put', 'bare', {}, master.token, 400, { error: 'description is missing' }],
        ['post', 'bare', { description: 'x' }, reporter.token, 403, { message: '403 Forbidden' }],
        ['put', 'bare', { description: 'x' }, guest.token, 403, { message: '403 Forbidden' }],
        ['post', 'bare', { description: 'x' }, stranger.token, 404, { message: '404 Project Not Found' }],
      ];
      for (const [method, tag, json, token, status, body] of cases) {
        const r = await s.request(method.toUpperCase(), `${p.tags}/${tag}/release`, { token, json });
        expect([r.status, r.body], `${method} ${tag} ${JSON.stringify(json)}`).to.deep.equal([status, body]);
      }
      expect(await s.db('releases').where({ project_id: p.id })).to.deep.equal([]);
    });
  });
});
