// Search (GitLab 10.8 lib/api/search.rb, spec/requests/api/search_spec.rb): the statuses and
// bodies of the three endpoints, each scope's entity against 10.8's schema, the pagination
// headers (uncounted for global and group searches, counted for snippets and projects), the
// blob search's shape (context lines, startline, basename, hits by file name), commit search by
// message and by id, `#iid` references and the term's `%`/`_` taken literally.
import { expect } from 'chai';
import { useServerWithRoles } from '../helpers/roles.js';
import { expectSchema } from '../helpers/schema.js';
import { commitFiles, createProject, created, openMergeRequest, createBranch } from '../helpers/projects.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };

describe('Search API', () => {
  const { s, owner, stranger } = useServerWithRoles();
  let project: any;
  let group: any;
  let sha: string;

  before(async () => {
    group = created(await s.post('/groups', { token: owner.token, json: { name: 'flights', path: 'flights', visibility: 'public' } }));
    project = await createProject(s, owner.token, { name: 'awesome project', path: 'awesome', namespace_id: group.id, visibility: 'public' });
    const content = ['alpha', 'beta', 'gamma Monitors here', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota monitors again', 'kappa'].join('\n') + '\n';
    sha = await commitFiles(
      s,
      project.id,
      'master',
      [
        { action: 'create', file_path: 'lib/watch.rb', content },
        { action: 'create', file_path: 'docs/README.md', content: 'nothing to see\n' },
        { action: 'create', file_path: 'a_b.txt', content: 'literal 100% and a_b\n' },
        { action: 'create', file_path: 'many.txt', content: Array.from({ length: 1500 }, (_, i) => (i % 10 === 0 ? `needle ${i}` : `hay ${i}`)).join('\n') + '\n' },
      ],
      { token: owner.token, message: 'Add the awesome watchers' },
    );
    await commitFiles(s, project.id, 'other', [{ action: 'create', file_path: 'only_here.txt', content: 'monitors on a branch\n' }], {
      token: owner.token,
      start: 'master',
      message: 'branch work',
    });
    for (let i = 1; i <= 3; i++)
      created(await s.post(`/projects/${project.id}/issues`, { token: owner.token, json: { title: `awesome issue ${i}`, description: 'about 50%_off' } }));
    created(await s.post(`/projects/${project.id}/milestones`, { token: owner.token, json: { title: 'awesome milestone' } }));
    await createBranch(s, project.id, 'feature', 'master', owner.token);
    await commitFiles(s, project.id, 'feature', [{ action: 'create', file_path: 'f.txt', content: 'f\n' }], { token: owner.token });
    await openMergeRequest(s, project.id, { source_branch: 'feature', target_branch: 'master', title: 'awesome merge request' }, owner.token);
    created(await s.post(`/projects/${project.id}/snippets`, { token: owner.token, json: { title: 'awesome snippet', file_name: 's.rb', code: 'puts 1', visibility: 'public' } }));
    created(await s.post('/snippets', { token: owner.token, json: { title: 'plain', file_name: 'awesome.txt', content: 'some awesome code', visibility: 'public' } }));
  });

  const get = (path: string, query: Record<string, string | number>, token: string | null = stranger.token) =>
    s.get(`${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token });

  describe('errors', () => {
    it('answers 401 to the anonymous on every endpoint', async () => {
      for (const path of ['/search', `/groups/${group.id}/search`, `/projects/${project.id}/search`]) {
        const r = await get(path, { scope: 'issues', search: 'awesome' }, null);
        expect(r.status, path).to.equal(401);
        expect(r.body).to.deep.equal(UNAUTHORIZED);
      }
    });

    it('answers 400 for a missing or unsupported scope and a missing search, in Grape words', async () => {
      const cases: [string, Record<string, string>, string][] = [
        ['/search', { search: 'awesome' }, 'scope is missing'],
        ['/search', { scope: 'unsupported', search: 'awesome' }, 'scope does not have a valid value'],
        ['/search', { scope: 'projects' }, 'search is missing'],
        ['/search', {}, 'search is missing, scope is missing'],
        // 10.8 CE has no repository scopes in a global or group search.
        ['/search', { scope: 'blobs', search: 'a' }, 'scope does not have a valid value'],
        ['/search', { scope: 'commits', search: 'a' }, 'scope does not have a valid value'],
        ['/search', { scope: 'wiki_blobs', search: 'a' }, 'scope does not have a valid value'],
        [`/groups/${group.id}/search`, { scope: 'snippet_titles', search: 'a' }, 'scope does not have a valid value'],
        [`/groups/${group.id}/search`, { search: 'a' }, 'scope is missing'],
        [`/projects/${project.id}/search`, { scope: 'projects', search: 'a' }, 'scope does not have a valid value'],
        [`/projects/${project.id}/search`, { scope: 'blobs' }, 'search is missing'],
        ['/search', { scope: 'issues', search: 'a', page: 'abc' }, 'page is invalid'],
        [`/projects/${project.id}/search`, { scope: 'blobs', search: 'a', per_page: 'x' }, 'per_page is invalid'],
      ];
      for (const [path, query, error] of cases) {
        const r = await get(path, query);
        expect(r.status, `${path} ${JSON.stringify(query)}`).to.equal(400);
        expect(r.body).to.deep.equal({ error });
      }
    });

    it('refuses a NUL in the term or the ref as every string parameter (400), on every scope', async () => {
      const scopes: [string, string[]][] = [
        ['/search', ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'snippet_blobs']],
        [`/groups/${group.id}/search`, ['projects', 'issues', 'merge_requests', 'milestones']],
        [`/projects/${project.id}/search`, ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs']],
      ];
      for (const [path, list] of scopes) {
        for (const scope of list) {
          const nulTerm = await get(path, { scope, search: 'awe\u0000some' });
          expect(nulTerm.status, `${path} ${scope}`).to.equal(400);
          expect(nulTerm.body).to.deep.equal({ error: 'search is invalid' });
        }
      }
      const nulRef = await get(`/projects/${project.id}/search`, { scope: 'blobs', search: 'monitors', ref: 'mas\u0000ter' });
      expect(nulRef.status).to.equal(400);
      expect(nulRef.body).to.deep.equal({ error: 'ref is invalid' });
    });

    it('checks the parameters before looking up the group or project, as 10.8 (400 before 404)', async () => {
      const hidden = await createProject(s, owner.token, { name: 'hidden', visibility: 'private' });
      for (const path of ['/groups/999999/search', '/projects/999999/search', `/projects/${hidden.id}/search`]) {
        const r = await get(path, { scope: 'unsupported', search: 'a' });
        expect(r.status, path).to.equal(400);
        expect(r.body).to.deep.equal({ error: 'scope does not have a valid value' });
      }
      const r = await get(`/projects/${hidden.id}/search`, { scope: 'issues', search: 'a' });
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
    });

    it('answers 404 for a group or project that does not exist', async () => {
      const g = await get('/groups/999999/search', { scope: 'projects', search: 'a' });
      expect(g.status).to.equal(404);
      expect(g.body).to.deep.equal({ message: '404 Group Not Found' });
      const p = await get('/projects/999999/search', { scope: 'issues', search: 'a' });
      expect(p.status).to.equal(404);
      expect(p.body).to.deep.equal({ message: '404 Project Not Found' });
    });
  });

  describe('global and group scopes', () => {
    const uncounted = (r: any) => {
      for (const h of ['x-per-page', 'x-page', 'x-next-page', 'x-prev-page', 'link']) expect(r.headers.has(h), h).to.equal(true);
      expect(r.headers.has('x-total')).to.equal(false);
      expect(r.headers.has('x-total-pages')).to.equal(false);
      expect(r.headers.get('link')).not.to.include('rel="last"');
    };

    it('finds projects, issues, merge requests and milestones in 10.8 shapes, uncounted', async () => {
      for (const base of ['/search', `/groups/${group.id}/search`]) {
        const cases: [string, string, number][] = [
          ['projects', 'public_api/v4/projects.json', 1],
          ['issues', 'public_api/v4/issues.json', 3],
          ['merge_requests', 'public_api/v4/merge_requests.json', 1],
          ['milestones', 'public_api/v4/milestones.json', 1],
        ];
        for (const [scope, schema, size] of cases) {
          const r = await get(base, { scope, search: 'AWESOME' });
          expect(r.status, `${base} ${scope} ${r.text}`).to.equal(200);
          expect(r.body, `${base} ${scope}`).to.have.length(size);
          expectSchema(r.body, schema);
          uncounted(r);
        }
      }
    });

    it('shows BasicProjectDetails for projects, newest first', async () => {
      const r = await get('/search', { scope: 'projects', search: 'awesome' });
      expect(Object.keys(r.body[0])).to.deep.equal([
        'id',
        'description',
        'name',
        'name_with_namespace',
        'path',
        'path_with_namespace',
        'created_at',
        'default_branch',
        'tag_list',
        'ssh_url_to_repo',
        'http_url_to_repo',
        'web_url',
        'avatar_url',
        'star_count',
        'forks_count',
        'last_activity_at',
      ]);
      expect(r.body[0].path_with_namespace).to.equal('flights/awesome');
    });

    it('pages issues without counting them: X-Next-Page from one row more', async () => {
      const first = await get('/search', { scope: 'issues', search: 'awesome', per_page: 2 });
      expect(first.body).to.have.length(2);
      expect(first.headers.get('x-next-page')).to.equal('2');
      expect(first.headers.get('x-prev-page')).to.equal('');
      expect(first.body.map((i: any) => i.title)).to.deep.equal(['awesome issue 3', 'awesome issue 2']);
      const second = await get('/search', { scope: 'issues', search: 'awesome', per_page: 2, page: 2 });
      expect(second.body.map((i: any) => i.title)).to.deep.equal(['awesome issue 1']);
      expect(second.headers.get('x-next-page')).to.equal('');
      expect(second.headers.get('x-prev-page')).to.equal('1');
      uncounted(second);
    });

    it('reads `#<iid>` as an issue reference and `%`/`_` literally', async () => {
      const byIid = await get('/search', { scope: 'issues', search: 'whatever #2' });
      expect(byIid.body.map((i: any) => i.title)).to.deep.equal(['awesome issue 2']);
      const mr = await get(`/groups/${group.id}/search`, { scope: 'merge_requests', search: '!1' });
      expect(mr.body.map((m: any) => m.title)).to.deep.equal(['awesome merge request']);
      expect((await get('/search', { scope: 'issues', search: '50%_off' })).body).to.have.length(3);
      expect((await get('/search', { scope: 'issues', search: '50%xoff' })).body).to.have.length(0);
      expect((await get('/search', { scope: 'issues', search: '5_%' })).body).to.have.length(0);
    });

    it('takes an empty search as 10.8 did: everything of the scope', async () => {
      const r = await get('/search', { scope: 'issues', search: '' });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.have.length(3);
    });

    it('finds snippets by title or file name, and by content, counted', async () => {
      const titles = await get('/search', { scope: 'snippet_titles', search: 'awesome' });
      expect(titles.status).to.equal(200);
      expect(titles.body.map((x: any) => x.title)).to.deep.equal(['plain', 'awesome snippet']);
      expectSchema(titles.body, 'public_api/v4/snippets.json');
      expect(titles.headers.get('x-total')).to.equal('2');
      const blobs = await get('/search', { scope: 'snippet_blobs', search: 'awesome code' });
      expect(blobs.body.map((x: any) => x.title)).to.deep.equal(['plain']);
      expect(Object.keys(blobs.body[0])).to.deep.equal(['id', 'title', 'file_name', 'description', 'author', 'updated_at', 'created_at', 'project_id', 'web_url']);
    });
  });

  describe('project scopes', () => {
    const path = () => `/projects/${project.id}/search`;

    it('counts its pages', async () => {
      const r = await get(path(), { scope: 'issues', search: 'awesome', per_page: 2 });
      expect(r.headers.get('x-total')).to.equal('3');
      expect(r.headers.get('x-total-pages')).to.equal('2');
      expect(r.headers.get('link')).to.include('rel="last"');
      expectSchema(r.body, 'public_api/v4/issues.json');
      const ms = await get(path(), { scope: 'milestones', search: 'awesome' });
      expectSchema(ms.body, 'public_api/v4/milestones.json');
      const mrs = await get(path(), { scope: 'merge_requests', search: 'awesome' });
      expectSchema(mrs.body, 'public_api/v4/merge_requests.json');
    });

    it('finds blobs by content with two lines of context, case-insensitively, and by path', async () => {
      const r = await get(path(), { scope: 'blobs', search: 'monitors' });
      expect(r.status, r.text).to.equal(200);
      expectSchema(r.body, 'public_api/v4/blobs.json');
      expect(r.headers.get('x-total')).to.equal('2');
      expect(r.body).to.deep.equal([
        {
          basename: 'lib/watch',
          data: 'alpha\nbeta\ngamma Monitors here\ndelta\nepsilon\n',
          filename: 'lib/watch.rb',
          id: null,
          ref: 'master',
          startline: 1,
          project_id: project.id,
        },
        { basename: 'lib/watch', data: 'eta\ntheta\niota monitors again\nkappa\n', filename: 'lib/watch.rb', id: null, ref: 'master', startline: 7, project_id: project.id },
      ]);
      const named = await get(path(), { scope: 'blobs', search: '/docs' });
      expect(named.body).to.have.length(1);
      expect(named.body[0]).to.include({ basename: 'README.md', filename: 'docs/README.md', data: 'nothing to see\n', startline: 1, ref: 'master' });
      expect(named.body[0].id).to.match(/^[0-9a-f]{40}$/);
      // A fixed string: regex characters match themselves.
      expect((await get(path(), { scope: 'blobs', search: '100%' })).body.map((b: any) => b.filename)).to.deep.equal(['a_b.txt']);
      expect((await get(path(), { scope: 'blobs', search: '(a+)+$' })).body).to.deep.equal([]);
      expect((await get(path(), { scope: 'blobs', search: 'a.b' })).body).to.deep.equal([]);
    });

    it('keeps the first 100 groups of lines of a term found more often', async () => {
      const r = await get(path(), { scope: 'blobs', search: 'needle', per_page: 100, page: 1 });
      expect(r.headers.get('x-total')).to.equal('100');
      expect(r.body[99]).to.include({ filename: 'many.txt', startline: 989 });
    });

    it('searches another ref when asked, and nothing for an unknown one', async () => {
      const r = await get(path(), { scope: 'blobs', search: 'monitors', ref: 'other' });
      expect(r.body.map((b: any) => [b.filename, b.ref])).to.deep.equal([
        ['lib/watch.rb', 'other'],
        ['lib/watch.rb', 'other'],
        ['only_here.txt', 'other'],
      ]);
      const none = await get(path(), { scope: 'blobs', search: 'monitors', ref: 'nope' });
      expect(none.status).to.equal(200);
      expect(none.body).to.deep.equal([]);
    });

    it('finds commits by message and by id, as CommitDetail', async () => {
      const r = await get(path(), { scope: 'commits', search: 'WATCHERS' });
      expect(r.status).to.equal(200);
      expect(r.body.map((c: any) => c.id)).to.deep.equal([sha]);
      expectSchema(r.body, 'public_api/v4/commits_details.json');
      expect(r.body[0]).to.include({ title: 'Add the awesome watchers', project_id: project.id, status: null, last_pipeline: null });
      const byId = await get(path(), { scope: 'commits', search: ` ${sha.slice(0, 10)} ` });
      expect(byId.body.map((c: any) => c.id)).to.deep.equal([sha]);
      expect((await get(path(), { scope: 'commits', search: 'watch.*rs' })).body).to.deep.equal([]);
    });

    it("finds users' notes on issues, merge requests, commits and snippets, as Note", async () => {
      const snippet = created(await s.post(`/projects/${project.id}/snippets`, { token: owner.token, json: { title: 'n', file_name: 'n.rb', code: 'x', visibility: 'public' } }));
      created(await s.post(`/projects/${project.id}/issues/1/notes`, { token: owner.token, json: { body: 'a noteworthy issue' } }));
      created(await s.post(`/projects/${project.id}/merge_requests/1/notes`, { token: owner.token, json: { body: 'a noteworthy change' } }));
      created(await s.post(`/projects/${project.id}/repository/commits/${sha}/comments`, { token: owner.token, json: { note: 'a noteworthy commit' } }));
      created(await s.post(`/projects/${project.id}/snippets/${snippet.id}/notes`, { token: owner.token, json: { body: 'a noteworthy snippet' } }));
      const r = await get(path(), { scope: 'notes', search: 'NOTEWORTHY' });
      expect(r.status, r.text).to.equal(200);
      // 10.8's schema knows issue and merge request notes only (a commit's has no noteable_id).
      expectSchema(
        r.body.filter((n: any) => n.noteable_iid !== null),
        'public_api/v4/notes.json',
      );
      expect(r.headers.get('x-total')).to.equal('4');
      expect(r.body.map((n: any) => [n.body, n.noteable_type, n.noteable_iid])).to.deep.equal([
        ['a noteworthy snippet', 'Snippet', null],
        ['a noteworthy commit', 'Commit', null],
        ['a noteworthy change', 'MergeRequest', 1],
        ['a noteworthy issue', 'Issue', 1],
      ]);
      // System notes are not searched.
      const mr = await s.put(`/projects/${project.id}/issues/3`, { token: owner.token, json: { state_event: 'close' } });
      expect(mr.status).to.equal(200);
      expect((await get(path(), { scope: 'notes', search: 'closed' })).body).to.deep.equal([]);
    });

    it('finds no blobs or commits in an empty repository', async () => {
      const empty = await createProject(s, owner.token, { name: 'empty', visibility: 'public' });
      for (const scope of ['blobs', 'commits']) {
        const r = await get(`/projects/${empty.id}/search`, { scope, search: 'anything' });
        expect(r.status, scope).to.equal(200);
        expect(r.body).to.deep.equal([]);
      }
    });

    it('answers an empty page for wiki_blobs (no wikis yet)', async () => {
      const r = await get(path(), { scope: 'wiki_blobs', search: 'awesome' });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal([]);
      expect(r.headers.get('x-total')).to.equal('0');
    });
  });
});
