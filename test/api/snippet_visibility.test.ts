// The project snippet visibility matrix (GitLab 10.8's SnippetsFinder and ProjectSnippetPolicy):
// anonymous, non-member, guest, reporter, the author (a developer), a master and an admin ×
// private, internal and public snippets × private, internal and public projects, for reading
// (list, single, raw) and for changing (update, delete).
import { expect } from 'chai';
import { created } from '../helpers/projects.js';
import { projectWithRoles, useServerWithRoles, type Account } from '../helpers/roles.js';

type Viewer = 'anonymous' | 'stranger' | 'guest' | 'reporter' | 'author' | 'master' | 'admin';
type Visibility = 'private' | 'internal' | 'public';
const VISIBILITIES: Visibility[] = ['private', 'internal', 'public'];
const VIEWERS: Viewer[] = ['anonymous', 'stranger', 'guest', 'reporter', 'author', 'master', 'admin'];

/** What a viewer's GETs answer: 200, the snippet hidden, or the project hidden. */
type Read = 'ok' | 'hidden' | 'no-project' | 'anonymous';

function expectedRead(viewer: Viewer, snippet: Visibility, project: Visibility): Read {
  if (viewer === 'anonymous') return 'anonymous'; // the whole API needs a signed-in user
  if (viewer === 'stranger') {
    if (project === 'private') return 'no-project';
    return snippet === 'private' ? 'hidden' : 'ok';
  }
  return 'ok'; // members see every snippet of their project; admins every one
}

/** What changing it answers: 200/204, 403, or hidden as reading is. */
function expectedWrite(viewer: Viewer, snippet: Visibility, project: Visibility): Read | 'forbidden' {
  const read = expectedRead(viewer, snippet, project);
  if (read !== 'ok') return read;
  if (viewer === 'author' || viewer === 'admin') return 'ok';
  if (viewer === 'master') return snippet === 'internal' ? 'forbidden' : 'ok'; // GitLab's internal-snippet rule
  return 'forbidden';
}

describe('Project snippets: the visibility matrix', function () {
  this.timeout(120_000);
  const { s, owner, master, dev: author, reporter, guest, stranger, admin } = useServerWithRoles();
  const projects = {} as Record<Visibility, number>;
  /** project visibility → snippet visibility → snippet id */
  const snippets = {} as Record<Visibility, Record<Visibility, number>>;

  function tokenOf(viewer: Viewer): string | null {
    const accounts: Record<Exclude<Viewer, 'anonymous'>, Account> = { stranger, guest, reporter, author, master, admin };
    return viewer === 'anonymous' ? null : accounts[viewer].token;
  }

  async function makeSnippet(projectId: number, visibility: Visibility): Promise<number> {
    const json = { title: `${visibility} one`, file_name: 'a.rb', code: `puts "${visibility}"`, visibility };
    return created(await s.post(`/projects/${projectId}/snippets`, { token: author.token, json })).id;
  }

  before(async () => {
    for (const pv of VISIBILITIES) {
      const project = await projectWithRoles(s, owner, { master, dev: author, reporter, guest }, { name: `matrix-${pv}`, visibility: pv });
      projects[pv] = project.id;
      snippets[pv] = {} as Record<Visibility, number>;
      for (const sv of VISIBILITIES) snippets[pv][sv] = await makeSnippet(project.id, sv);
    }
  });

  for (const pv of VISIBILITIES) {
    for (const viewer of VIEWERS) {
      it(`${viewer} on a ${pv} project: list, single and raw`, async () => {
        const token = tokenOf(viewer);
        const list = await s.get(`/projects/${projects[pv]}/snippets`, { token });
        const listed = new Set<number>(list.status === 200 ? list.body.map((x: { id: number }) => x.id) : []);
        for (const sv of VISIBILITIES) {
          const id = snippets[pv][sv];
          const single = await s.get(`/projects/${projects[pv]}/snippets/${id}`, { token });
          const raw = await s.get(`/projects/${projects[pv]}/snippets/${id}/raw`, { token });
          const want = expectedRead(viewer, sv, pv);
          const where = `${viewer}, ${sv} snippet, ${pv} project`;
          if (want === 'ok') {
            expect(single.status, where).to.equal(200);
            expect(single.body.id, where).to.equal(id);
            expect(raw.status, where).to.equal(200);
            expect(raw.text, where).to.equal(`puts "${sv}"`);
            expect(listed.has(id), where).to.equal(true);
          } else if (want === 'hidden') {
            expect(single.status, where).to.equal(404);
            expect(single.body, where).to.deep.equal({ message: '404 Not found' });
            expect(raw.status, where).to.equal(404);
            expect(raw.body, where).to.deep.equal({ message: '404 Snippet Not Found' });
            expect(listed.has(id), where).to.equal(false);
          } else if (want === 'no-project') {
            for (const r of [list, single, raw]) {
              expect(r.status, where).to.equal(404);
              expect(r.body, where).to.deep.equal({ message: '404 Project Not Found' });
            }
          } else {
            for (const r of [list, single, raw]) {
              expect(r.status, where).to.equal(401);
              expect(r.body, where).to.deep.equal({ message: '401 Unauthorized' });
            }
          }
        }
      });

      it(`${viewer} on a ${pv} project: update and delete`, async () => {
        const token = tokenOf(viewer);
        for (const sv of VISIBILITIES) {
          const id = snippets[pv][sv];
          const where = `${viewer}, ${sv} snippet, ${pv} project`;
          const want = expectedWrite(viewer, sv, pv);
          const put = await s.put(`/projects/${projects[pv]}/snippets/${id}`, { token, json: { title: `renamed by ${viewer}` } });
          if (want === 'ok') {
            expect(put.status, where).to.equal(200);
            expect(put.body.title, where).to.equal(`renamed by ${viewer}`);
          } else if (want === 'forbidden') {
            expect(put.status, where).to.equal(403);
            expect(put.body, where).to.deep.equal({ message: '403 Forbidden' });
          } else if (want === 'hidden') {
            expect(put.status, where).to.equal(404);
            expect(put.body, where).to.deep.equal({ message: '404 Snippet Not Found' });
          } else if (want === 'no-project') {
            expect(put.status, where).to.equal(404);
            expect(put.body, where).to.deep.equal({ message: '404 Project Not Found' });
          } else {
            expect(put.status, where).to.equal(401);
          }
          const del = await s.delete(`/projects/${projects[pv]}/snippets/${id}`, { token });
          if (want === 'ok') {
            expect(del.status, where).to.equal(204);
            expect(del.text, where).to.equal('');
            expect(await s.db('snippets').where({ id }).first(), where).to.equal(undefined);
            snippets[pv][sv] = await makeSnippet(projects[pv], sv); // for the next viewer
          } else {
            expect(del.status, where).to.equal(put.status);
            expect(del.body, where).to.deep.equal(put.body);
            expect(await s.db('snippets').where({ id }).first(), where).to.not.equal(undefined);
          }
        }
      });
    }
  }
});
