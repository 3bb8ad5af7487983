// Search never shows what the user cannot read (GitLab 10.8's SearchService over its finders):
// a secret term is planted in every scope of a private, an internal and a public project
// (and of a public one with issues, merge requests and snippets turned off), then each actor
// — anonymous, non-member, external user, guest, reporter, developer, maintainer, admin — searches every
// scope globally, in the group and in the project, and finds exactly what 10.8 lets them read:
// confidential issues from reporters up, merge requests and code from reporters up in a
// private project, nothing at all of a private project for a non-member (its search a 404).
import { expect } from 'chai';
import { useServerWithRoles, addRoleMembers, type Account } from '../helpers/roles.js';
import { commitFiles, createProject, created, createBranch, openMergeRequest } from '../helpers/projects.js';

type Label = 'project' | 'issue' | 'confidential' | 'mr' | 'milestone' | 'snippet' | 'note' | 'commit' | 'blob';
type Actor = 'stranger' | 'external' | 'guest' | 'reporter' | 'dev' | 'master' | 'admin';
type Kind = 'private' | 'internal' | 'public' | 'off';

const ACTORS: Actor[] = ['stranger', 'external', 'guest', 'reporter', 'dev', 'master', 'admin'];
const LEVEL: Record<Actor, number> = { stranger: 0, external: 0, guest: 10, reporter: 20, dev: 30, master: 40, admin: 0 };

/** What 10.8 lets `actor` read of a project of `kind`. */
function expected(actor: Actor, kind: Kind): Set<Label> {
  const admin = actor === 'admin';
  const level = LEVEL[actor];
  // An external user is no signed-in user to internal projects.
  const open = kind !== 'private' && !(kind === 'internal' && actor === 'external');
  const sees = admin || level > 0 || open;
  if (!sees) return new Set();
  const out = new Set<Label>(['project']);
  const code = admin || level >= 20 || open;
  if (code) out.add('commit').add('blob');
  if (kind !== 'off') {
    out.add('issue').add('note').add('milestone').add('snippet');
    if (admin || level >= 20) out.add('confidential');
    if (code) out.add('mr');
  }
  return out;
}

describe('Search secrecy', () => {
  const roles = useServerWithRoles();
  const { s, owner } = roles;
  let group: any;
  const projects: Partial<Record<Kind, any>> = {};
  const secret = (kind: Kind) => `zebra${kind}`;

  let external: Account;

  before(async function () {
    this.timeout(120000);
    external = await s.createUser('outsider', { external: true });
    group = created(await s.post('/groups', { token: owner.token, json: { name: 'zoo', path: 'zoo', visibility: 'public' } }));
    for (const kind of ['private', 'internal', 'public', 'off'] as Kind[]) {
      const term = secret(kind);
      const visibility = kind === 'off' ? 'public' : kind;
      const p = await createProject(s, owner.token, { name: `p-${kind}`, path: `p-${kind}`, namespace_id: group.id, visibility, description: `holds ${term}` });
      await addRoleMembers(s, p.id, { master: roles.master, dev: roles.dev, reporter: roles.reporter, guest: roles.guest });
      const sha = await commitFiles(s, p.id, 'master', [{ action: 'create', file_path: 'secret.txt', content: `the ${term} file\n` }], {
        token: owner.token,
        message: `commit ${term}`,
      });
      const issue = created(await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: `${term} open` } }));
      created(await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: `${term} confidential`, confidential: true } }));
      created(await s.post(`/projects/${p.id}/issues/${issue.iid}/notes`, { token: owner.token, json: { body: `note ${term}` } }));
      created(await s.post(`/projects/${p.id}/milestones`, { token: owner.token, json: { title: `${term} milestone` } }));
      await createBranch(s, p.id, 'feature', sha, owner.token);
      await commitFiles(s, p.id, 'feature', [{ action: 'create', file_path: 'f.txt', content: 'f\n' }], { token: owner.token });
      await openMergeRequest(s, p.id, { source_branch: 'feature', target_branch: 'master', title: `${term} mr` }, owner.token);
      created(await s.post(`/projects/${p.id}/snippets`, { token: owner.token, json: { title: `${term} snippet`, file_name: 's.txt', code: `code ${term}`, visibility } }));
      if (kind === 'off') {
        const r = await s.put(`/projects/${p.id}`, { token: owner.token, json: { issues_enabled: false, merge_requests_enabled: false, snippets_enabled: false } });
        expect(r.status, r.text).to.equal(200);
      }
      projects[kind] = p;
    }
  });

  const account = (actor: Actor): Account => (actor === 'external' ? external : roles[actor]);
  const search = (path: string, scope: string, term: string, token: string | null) => s.get(`${path}?scope=${scope}&search=${term}`, { token });

  /** The labels one scope's answer shows. */
  function labelsOf(scope: string, body: any[]): Label[] {
    if (scope === 'projects') return body.length ? ['project'] : [];
    if (scope === 'issues') return body.map((i) => (i.title.endsWith('confidential') ? 'confidential' : 'issue'));
    const single: Record<string, Label> = {
      merge_requests: 'mr',
      milestones: 'milestone',
      snippet_titles: 'snippet',
      snippet_blobs: 'snippet',
      notes: 'note',
      commits: 'commit',
      blobs: 'blob',
    };
    return body.length ? [single[scope]] : [];
  }

  it('answers 401 to the anonymous, whatever the project', async () => {
    for (const path of ['/search', `/groups/${group.id}/search`, `/projects/${projects.public.id}/search`]) {
      const r = await search(path, 'issues', secret('public'), null);
      expect(r.status, path).to.equal(401);
      expect(r.body).to.deep.equal({ message: '401 Unauthorized' });
    }
  });

  for (const kind of ['private', 'internal', 'public', 'off'] as Kind[]) {
    it(`shows each actor only what it may read of a ${kind === 'off' ? 'public project with its features off' : `${kind} project`}`, async function () {
      this.timeout(60000);
      const term = secret(kind);
      for (const actor of ACTORS) {
        const want = expected(actor, kind);
        const token = account(actor).token;
        const found = new Set<Label>();
        for (const scope of ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'snippet_blobs']) {
          const r = await search('/search', scope, term, token);
          expect(r.status, `${actor} global ${scope}`).to.equal(200);
          for (const l of labelsOf(scope, r.body)) found.add(l);
        }
        for (const scope of ['projects', 'issues', 'merge_requests', 'milestones']) {
          const r = await search(`/groups/${group.id}/search`, scope, term, token);
          expect(r.status, `${actor} group ${scope}`).to.equal(200);
          const labels = labelsOf(scope, r.body);
          expect(
            labels.every((l) => want.has(l)),
            `${actor} group ${scope}: ${labels}`,
          ).to.equal(true);
        }
        for (const scope of ['issues', 'merge_requests', 'milestones', 'notes', 'commits', 'blobs', 'wiki_blobs']) {
          const r = await search(`/projects/${projects[kind].id}/search`, scope, term, token);
          if (!want.has('project')) {
            expect(r.status, `${actor} project ${scope}`).to.equal(404);
            expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
            continue;
          }
          expect(r.status, `${actor} project ${scope} ${r.text}`).to.equal(200);
          for (const l of labelsOf(scope, r.body)) found.add(l);
        }
        expect([...found].sort(), `${actor} on ${kind}`).to.deep.equal([...want].sort());
      }
    });
  }

  it('hides a private group from non-members (404)', async () => {
    const hidden = created(await s.post('/groups', { token: owner.token, json: { name: 'den', path: 'den', visibility: 'private' } }));
    const r = await search(`/groups/${hidden.id}/search`, 'projects', 'den', roles.stranger.token);
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ message: '404 Group Not Found' });
    expect((await search(`/groups/${hidden.id}/search`, 'projects', 'den', owner.token)).status).to.equal(200);
  });

  it('shows a confidential issue to its author and assignee below reporter', async () => {
    const p = projects.private;
    const term = 'zebraassigned';
    created(await s.post(`/projects/${p.id}/issues`, { token: owner.token, json: { title: `${term} issue`, confidential: true, assignee_ids: [roles.guest.user.id] } }));
    const guest = await search('/search', 'issues', term, roles.guest.token);
    expect(guest.body.map((i: any) => i.title)).to.deep.equal([`${term} issue`]);
    const inProject = await search(`/projects/${p.id}/search`, 'issues', term, roles.guest.token);
    expect(inProject.body.map((i: any) => i.title)).to.deep.equal([`${term} issue`]);
    const stranger = await search('/search', 'issues', term, roles.stranger.token);
    expect(stranger.body).to.deep.equal([]);
  });

  it('keeps private snippets to members and authors, even in a public project', async () => {
    const term = 'zebrahidden';
    created(
      await s.post(`/projects/${projects.public.id}/snippets`, { token: owner.token, json: { title: `${term} project`, file_name: 'a.txt', code: term, visibility: 'private' } }),
    );
    created(await s.post('/snippets', { token: owner.token, json: { title: `${term} personal`, file_name: 'b.txt', content: term, visibility: 'private' } }));
    created(await s.post('/snippets', { token: roles.stranger.token, json: { title: `${term} internal`, file_name: 'c.txt', content: term, visibility: 'internal' } }));
    const titles = async (who: Account, scope: string) => (await search('/search', scope, term, who.token)).body.map((x: any) => x.title).sort();
    for (const scope of ['snippet_titles', 'snippet_blobs']) {
      expect(await titles(owner, scope), scope).to.deep.equal([`${term} internal`, `${term} personal`, `${term} project`]);
      expect(await titles(roles.guest, scope), scope).to.deep.equal([`${term} internal`, `${term} project`]);
      expect(await titles(roles.stranger, scope), scope).to.deep.equal([`${term} internal`]);
      expect(await titles(roles.admin, scope), scope).to.deep.equal([`${term} internal`, `${term} personal`, `${term} project`]);
    }
  });
});
