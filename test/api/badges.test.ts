// Badges (GitLab 10.8 lib/api/badges.rb) of groups and projects: the six operations with status
// and body, URL validation (schemes, placeholders), rendering with a project's values (its path,
// id, default branch and head commit) and with a group's newest visible project, the project
// list with its groups' badges, and who may read and write.
import { expect } from 'chai';
import { commitFiles, created } from '../helpers/projects.js';
import { addProjectMembers, useServerWithRoles } from '../helpers/roles.js';
import { MASTER } from '../../src/policy/levels.js';

const BADGE_KEYS = ['link_url', 'image_url', 'rendered_link_url', 'rendered_image_url', 'id', 'kind'];
const FORBIDDEN = { message: '403 Forbidden' };
const INVALID_BOTH = { message: { link_url: ['must be a valid URL'], image_url: ['must be a valid URL'] } };
const LINK = 'https://ci.example.com/%{project_path}/%{default_branch}?id=%{project_id}';
const IMAGE = 'https://ci.example.com/badge/%{commit_sha}.svg';

describe('Badges API', function () {
  this.timeout(60_000);
  const { s, owner, master, stranger } = useServerWithRoles();
  let group: { id: number };
  let project: { id: number; path_with_namespace: string };
  let head: string;
  const count = async () => Number((await s.db('badges').count({ n: '*' }).first())?.n);

  before(async () => {
    group = created(await s.post('/groups', { token: owner.token, json: { name: 'Badged', path: 'badged', visibility: 'public' } }));
    expect((await s.post(`/groups/${group.id}/members`, { token: owner.token, json: { user_id: master.user.id, access_level: MASTER } })).status).to.equal(201);
    project = created(await s.post('/projects', { token: owner.token, json: { name: 'shiny', namespace_id: group.id, visibility: 'public' } }));
    await addProjectMembers(s, project.id, [[master, MASTER]]);
    head = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README', content: 'hi' }], { token: owner.token });
  });

  describe('projects', () => {
    const url = (suffix = '') => `/projects/${project.id}/badges${suffix}`;

    it('adds a badge (201) and renders its placeholders with the project', async () => {
      const r = await s.post(url(), { token: master.token, json: { link_url: ` ${LINK} `, image_url: IMAGE } });
      expect(r.status, r.text).to.equal(201);
      expect(Object.keys(r.body)).to.deep.equal(BADGE_KEYS);
      expect(r.body).to.include({ link_url: LINK, image_url: IMAGE, kind: 'project' });
      expect(r.body.rendered_link_url).to.equal(`https://ci.example.com/badged/shiny/master?id=${project.id}`);
      expect(r.body.rendered_image_url).to.equal(`https://ci.example.com/badge/${head}.svg`);
    });

    it('refuses URLs that are not http(s) (400 must be a valid URL) and stores nothing', async () => {
      const before = await count();
      const cases = ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/x', 'https://exa mple.com', 'https://example.com/%{unknown}', '/relative', 'https://', ''];
      for (const bad of cases) {
        const r = await s.post(url(), { token: master.token, json: { link_url: bad, image_url: bad } });
        expect(r.status, bad).to.equal(400);
        expect(r.body, bad).to.deep.equal(INVALID_BOTH);
      }
      const one = await s.post(url(), { token: master.token, json: { link_url: 'http://ok.example.com', image_url: 'javascript:x' } });
      expect(one.status).to.equal(400);
      expect(one.body).to.deep.equal({ message: { image_url: ['must be a valid URL'] } });
      const missing = await s.post(url(), { token: master.token, json: {} });
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ error: 'link_url is missing, image_url is missing' });
      expect(await count()).to.equal(before);
    });

    it("lists its own and its group's badges oldest first, to anonymous readers too", async () => {
      const g = created(
        await s.post(`/groups/${group.id}/badges`, { token: owner.token, json: { link_url: 'https://g.example.com/%{project_id}', image_url: 'https://g.example.com/i.svg' } }),
      );
      const r = await s.get(url(), { token: null });
      expect(r.status).to.equal(200);
      const last = r.body[r.body.length - 1];
      expect(last).to.include({ id: g.id, kind: 'group', rendered_link_url: `https://g.example.com/${project.id}` });
      expect(r.body.slice(0, -1).every((b: { kind: string }) => b.kind === 'project')).to.equal(true);
      const one = await s.get(url(`/${g.id}`), { token: null });
      expect(one.status).to.equal(200);
      expect(one.body.kind).to.equal('group');
    });

    it("changes a group's badge only through the group (403), its own through PUT", async () => {
      const g = created(
        await s.post(`/groups/${group.id}/badges`, { token: owner.token, json: { link_url: 'https://g.example.com/a', image_url: 'https://g.example.com/a.svg' } }),
      );
      const put = await s.put(url(`/${g.id}`), { token: master.token, json: { link_url: 'https://evil.example.com' } });
      expect(put.status).to.equal(403);
      expect(put.body).to.deep.equal({ message: 'To update a Group badge please use the Group endpoint' });
      const del = await s.delete(url(`/${g.id}`), { token: master.token });
      expect(del.status).to.equal(403);
      expect(del.body).to.deep.equal({ error: 'To delete a Group badge please use the Group endpoint' });
      expect(await s.db('badges').where({ id: g.id }).first()).to.include({ link_url: 'https://g.example.com/a' });

      const own = created(await s.post(url(), { token: master.token, json: { link_url: 'https://a.example.com', image_url: 'https://a.example.com/i.svg' } }));
      const changed = await s.put(url(`/${own.id}`), { token: master.token, json: { image_url: 'https://b.example.com/%{project_id}.svg' } });
      expect(changed.status).to.equal(200);
      expect(changed.body).to.include({
        link_url: 'https://a.example.com',
        image_url: 'https://b.example.com/%{project_id}.svg',
        rendered_image_url: `https://b.example.com/${project.id}.svg`,
      });
      const invalid = await s.put(url(`/${own.id}`), { token: master.token, json: { link_url: 'javascript:void(0)' } });
      expect(invalid.status).to.equal(400);
      expect(invalid.body).to.deep.equal({ message: { link_url: ['must be a valid URL'] } });
      expect((await s.db('badges').where({ id: own.id }).first()).link_url).to.equal('https://a.example.com');
      const gone = await s.delete(url(`/${own.id}`), { token: master.token });
      expect(gone.status).to.equal(204);
      const again = await s.get(url(`/${own.id}`), { token: master.token });
      expect(again.status).to.equal(404);
      expect(again.body).to.deep.equal({ message: '404 Not found' });
      const bad = await s.get(url('/abc'), { token: master.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ error: 'badge_id is invalid' });
    });

    it('writes and render need masters (403), anonymous 401', async () => {
      const body = { link_url: 'https://a.example.com', image_url: 'https://a.example.com/i.svg' };
      const r = await s.post(url(), { token: stranger.token, json: body });
      expect(r.status).to.equal(403);
      expect(r.body).to.deep.equal(FORBIDDEN);
      const anon = await s.post(url(), { token: null, json: body });
      expect(anon.status).to.equal(401);
      expect(anon.body).to.deep.equal({ message: '401 Unauthorized' });
      const render = await s.get(url('/render?link_url=https://a.example.com&image_url=https://b.example.com'), { token: stranger.token });
      expect(render.status).to.equal(403);
    });

    it('render previews without storing (BasicBadgeDetails); invalid URLs are 400', async () => {
      const before = await count();
      const q = `link_url=${encodeURIComponent(LINK)}&image_url=${encodeURIComponent(IMAGE)}`;
      const r = await s.get(url(`/render?${q}`), { token: master.token });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.deep.equal({
        link_url: LINK,
        image_url: IMAGE,
        rendered_link_url: `https://ci.example.com/badged/shiny/master?id=${project.id}`,
        rendered_image_url: `https://ci.example.com/badge/${head}.svg`,
      });
      const bad = await s.get(url('/render?link_url=javascript:x&image_url=https://b.example.com'), { token: master.token });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ message: { link_url: ['must be a valid URL'] } });
      expect(await count()).to.equal(before);
    });

    it('hides private projects (404 Project Not Found)', async () => {
      const secret = created(await s.post('/projects', { token: owner.token, json: { name: 'secret-badges', visibility: 'private' } }));
      const r = await s.get(`/projects/${secret.id}/badges`, { token: stranger.token });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
    });
  });

  describe('groups', () => {
    it('owners write (masters 403); badges render with the newest project the reader sees', async () => {
      const body = { link_url: 'https://g.example.com/%{project_path}', image_url: 'https://g.example.com/%{default_branch}.svg' };
      const byMaster = await s.post(`/groups/${group.id}/badges`, { token: master.token, json: body });
      expect(byMaster.status).to.equal(403);
      expect(byMaster.body).to.deep.equal(FORBIDDEN);
      const r = await s.post(`/groups/${group.id}/badges`, { token: owner.token, json: body });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ kind: 'group', rendered_link_url: 'https://g.example.com/badged/shiny', rendered_image_url: 'https://g.example.com/master.svg' });
      // A newer private project is the owner's rendering project, not an anonymous reader's.
      created(await s.post('/projects', { token: owner.token, json: { name: 'hidden', namespace_id: group.id, visibility: 'private' } }));
      const asOwner = await s.get(`/groups/${group.id}/badges/${r.body.id}`, { token: owner.token });
      expect(asOwner.body.rendered_link_url).to.equal('https://g.example.com/badged/hidden');
      expect(asOwner.body.rendered_image_url).to.equal(body.image_url); // no default branch yet: kept
      const anon = await s.get(`/groups/${group.id}/badges/${r.body.id}`, { token: null });
      expect(anon.body.rendered_link_url).to.equal('https://g.example.com/badged/shiny');
      const list = await s.get(`/groups/${group.id}/badges`, { token: null });
      expect(list.status).to.equal(200);
      expect(list.body.every((b: { kind: string }) => b.kind === 'group')).to.equal(true);
    });

    it('a group without projects shows its badges unrendered; PUT, DELETE and 404', async () => {
      const empty = created(await s.post('/groups', { token: owner.token, json: { name: 'Empty', path: 'empty-group', visibility: 'public' } }));
      const b = created(
        await s.post(`/groups/${empty.id}/badges`, { token: owner.token, json: { link_url: 'https://x.example.com/%{project_id}', image_url: 'https://x.example.com/i.svg' } }),
      );
      expect(b.rendered_link_url).to.equal('https://x.example.com/%{project_id}');
      const put = await s.put(`/groups/${empty.id}/badges/${b.id}`, { token: owner.token, json: { link_url: 'https://y.example.com' } });
      expect(put.status).to.equal(200);
      expect(put.body.link_url).to.equal('https://y.example.com');
      const elsewhere = await s.get(`/groups/${group.id}/badges/${b.id}`, { token: owner.token });
      expect(elsewhere.status).to.equal(404);
      expect(elsewhere.body).to.deep.equal({ message: '404 Not found' });
      expect((await s.delete(`/groups/${empty.id}/badges/${b.id}`, { token: owner.token })).status).to.equal(204);
      const gone = await s.delete(`/groups/${empty.id}/badges/${b.id}`, { token: owner.token });
      expect(gone.status).to.equal(404);
      expect(gone.body).to.deep.equal({ message: '404 Not found' });
    });
  });
});
