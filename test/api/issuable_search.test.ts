// `search=` on issue and merge request lists: GitLab's rule (each word of 3+ characters must
// appear in the title, or each in the description; a shorter query must equal a column, case
// aside), with quoted phrases, LIKE's and FTS's special characters and non-ASCII text. On
// SQLite a trigram index answers, which must follow every edit and deletion.
import { expect } from 'chai';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createBranch, created, createProject, openMergeRequest } from '../helpers/projects.js';

describe('search on issue and merge request lists', () => {
  let s: TestServer;
  let projectId: number;
  const iids: Record<string, number> = {};

  const ISSUES: Record<string, { title: string; description?: string }> = {
    crash: { title: 'Crash on start', description: 'the parser fails' },
    crashed: { title: 'it broke', description: 'CRASHED while parsing "quotes"' },
    split: { title: 'crash report', description: 'nothing about the parser' },
    short: { title: 'ab' },
    unicode: { title: 'Ünïcode straße', description: 'naïve résumé' },
    percent: { title: '100% done_now' },
  };

  before(async () => {
    s = await bootServer();
    projectId = (await createProject(s, ROOT_TOKEN, { name: 'searching' })).id;
    for (const [key, issue] of Object.entries(ISSUES)) {
      iids[key] = created(await s.post(`/projects/${projectId}/issues`, { json: issue })).iid;
    }
  });
  after(async () => s.close());

  async function found(search: string): Promise<string[]> {
    const r = await s.get(`/projects/${projectId}/issues`, { query: { search, per_page: 100 } });
    expect(r.status, r.text).to.equal(200);
    expect(Number(r.headers.get('x-total')), 'X-Total agrees with the page').to.equal(r.body.length);
    const byIid = Object.fromEntries(Object.entries(iids).map(([k, v]) => [v, k]));
    return r.body.map((i: { iid: number }) => byIid[i.iid]).sort();
  }

  it('matches each long word in one column, case-insensitively', async () => {
    expect(await found('crash')).to.deep.equal(['crash', 'crashed', 'split']);
    // "crash" is in the title and "parser" in the description: no one column has both.
    expect(await found('CRASH parser')).to.deep.equal([]);
    expect(await found('PARSER')).to.deep.equal(['crash', 'split']);
  });

  it('needs both words in the same column', async () => {
    expect(await found('crash start')).to.deep.equal(['crash']);
    expect(await found('report parser')).to.deep.equal([]);
    expect(await found('parsing quotes')).to.deep.equal(['crashed']);
  });

  it('takes quoted phrases as one word, and characters that mean something to LIKE or FTS literally', async () => {
    expect(await found('"on start"')).to.deep.equal(['crash']);
    expect(await found('"quotes"')).to.deep.equal(['crashed']);
    expect(await found('100%')).to.deep.equal(['percent']);
    expect(await found('e_n')).to.deep.equal(['percent']);
    expect(await found('"a" OR b*')).to.deep.equal([]);
  });

  it('compares a query without long words to the whole column', async () => {
    expect(await found('AB')).to.deep.equal(['short']);
    expect(await found('a')).to.deep.equal([]);
  });

  it('finds non-ASCII words as typed', async () => {
    expect(await found('straße')).to.deep.equal(['unicode']);
    expect(await found('naïve')).to.deep.equal(['unicode']);
  });

  it('follows edits and deletions', async () => {
    const extra = created(await s.post(`/projects/${projectId}/issues`, { json: { title: 'zebra crossing' } }));
    iids.extra = extra.iid;
    expect(await found('zebra')).to.deep.equal(['extra']);
    expect((await s.put(`/projects/${projectId}/issues/${extra.iid}`, { json: { title: 'giraffe', description: 'tall zebu' } })).status).to.equal(200);
    expect(await found('zebra')).to.deep.equal([]);
    expect(await found('giraffe')).to.deep.equal(['extra']);
    expect(await found('zebu')).to.deep.equal(['extra']);
    expect((await s.delete(`/projects/${projectId}/issues/${extra.iid}`)).status).to.equal(204);
    expect(await found('giraffe')).to.deep.equal([]);
  });

  it('searches merge requests the same way', async () => {
    const p = await createProject(s, ROOT_TOKEN, { name: 'mr-searching' });
    await commitFiles(s, p.id, 'master', [{ action: 'create', file_path: 'a', content: 'a' }], { token: ROOT_TOKEN });
    for (const [branch, title, description] of [
      ['one', 'Parser rewrite', 'faster'],
      ['two', 'docs', 'mention the parser'],
    ]) {
      await createBranch(s, p.id, branch, 'master', ROOT_TOKEN);
      await commitFiles(s, p.id, branch, [{ action: 'create', file_path: branch, content: branch }], { token: ROOT_TOKEN });
      await openMergeRequest(s, p.id, { source_branch: branch, target_branch: 'master', title, description }, ROOT_TOKEN);
    }
    const titles = async (search: string) => (await s.get(`/projects/${p.id}/merge_requests`, { query: { search } })).body.map((m: { title: string }) => m.title).sort();
    expect(await titles('parser')).to.deep.equal(['Parser rewrite', 'docs']);
    expect(await titles('parser faster')).to.deep.equal([]);
    expect(await titles('rewrite PARSER')).to.deep.equal(['Parser rewrite']);
  });
});
