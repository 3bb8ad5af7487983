// POST /projects/:id/repository/commits (GitLab 10.8 lib/api/commits.rb, Files::MultiService):
// several actions in one commit, all or nothing, answered with the CommitDetail entity.
import { expect } from 'chai';
import path from 'node:path';
import { bootServer, type TestServer } from '../helpers/server.js';
import { expectSchema } from '../helpers/schema.js';
import { git, head, lsTree, refState, expectFsckClean, expectUntouched } from '../helpers/bare_git.js';
import { insertMember } from '../../src/services/members/members.js';
import { REPORTER } from '../../src/policy/levels.js';

type Account = { user: { id: number }; token: string };

describe('Commits API (POST: several changes in one commit)', () => {
  let s: TestServer;
  let alice: Account;
  let reporter: Account;
  let stranger: Account;

  before(async () => {
    s = await bootServer();
    alice = await s.createUser('alice');
    reporter = await s.createUser('reporter');
    stranger = await s.createUser('stranger');
  });
  after(async () => s.close());

  let counter = 0;
  async function project(): Promise<{ id: number; dir: string; url: string }> {
    const name = `c${++counter}`;
    const r = await s.post('/projects', { token: alice.token, json: { name } });
    await insertMember(s.db, { sourceType: 'project', sourceId: r.body.id, userId: reporter.user.id, accessLevel: REPORTER });
    return { id: r.body.id, dir: path.join(s.dir, 'repos', 'alice', `${name}.git`), url: `/projects/${r.body.id}/repository/commits` };
  }

  /** master: README.md, lib/a.rb, lib/b.rb (executable), doc/x.md. */
  async function seeded() {
    const p = await project();
    const r = await s.post(p.url, {
      token: alice.token,
      json: {
        branch: 'master',
        commit_message: 'Initial',
        actions: [
          { action: 'create', file_path: 'README.md', content: 'hello\n' },
          { action: 'create', file_path: 'lib/a.rb', content: 'a1\na2\na3\n' },
          { action: 'create', file_path: 'lib/b.rb', content: 'b\n' },
          { action: 'chmod', file_path: 'lib/b.rb', execute_filemode: true },
          { action: 'create', file_path: 'doc/x.md', content: 'x\n' },
        ],
      },
    });
    expect(r.status, r.text).to.equal(201);
    return p;
  }

  const commit = (p: { url: string }, body: Record<string, unknown>, token = alice.token) => s.post(p.url, { token, json: { branch: 'master', commit_message: 'm', ...body } });

  it('applies every kind of action as one commit and answers the CommitDetail entity (no stats, as 10.8)', async () => {
    const p = await seeded();
    const parent = head(p.dir, 'master');
    const r = await commit(p, {
      commit_message: 'Multiple actions\n\nwith a body',
      actions: [
        { action: 'create', file_path: 'new/one.txt', content: 'one\n' },
        { action: 'update', file_path: 'lib/a.rb', content: 'a1\nA2\na3\n' },
        { action: 'move', previous_path: 'doc/x.md', file_path: 'docs/x.md', content: 'moved\n' },
        { action: 'move', previous_path: 'lib/b.rb', file_path: 'bin/b.rb' },
        { action: 'delete', file_path: 'README.md' },
        { action: 'create', file_path: 'bin.dat', content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'base64' },
        { action: 'create_dir', file_path: 'empty' },
      ],
    });
    expect(r.status).to.equal(201);
    expectSchema(r.body, 'public_api/v4/commit/detail.json');
    const id = head(p.dir, 'master');
    expect(r.body).to.deep.include({
      id,
      short_id: id.slice(0, 8),
      title: 'Multiple actions',
      message: 'Multiple actions\n\nwith a body',
      parent_ids: [parent],
      author_name: 'Alice',
      author_email: 'alice@example.com',
      committer_name: 'Alice',
      committer_email: 'alice@example.com',
      status: null,
      last_pipeline: null,
      project_id: p.id,
    });
    expect(r.body).to.not.have.property('stats');
    expect(r.body.created_at).to.equal(r.body.committed_date);
    expect(new Date(r.body.authored_date).getTime()).to.equal(Number(git(p.dir, ['log', '-1', '--format=%at', 'master']).trim()) * 1000);

    const files = lsTree(p.dir, 'master');
    expect(Object.keys(files).sort()).to.deep.equal(['bin.dat', 'bin/b.rb', 'docs/x.md', 'empty/.gitkeep', 'lib/a.rb', 'new/one.txt']);
    expect(files['bin/b.rb']).to.match(/^100755 /); // a move keeps the mode, and without content the content
    expect(git(p.dir, ['show', 'master:bin/b.rb'])).to.equal('b\n');
    expect(git(p.dir, ['show', 'master:docs/x.md'])).to.equal('moved\n');
    expect(git(p.dir, ['show', 'master:lib/a.rb'])).to.equal('a1\nA2\na3\n');
    expect(git(p.dir, ['rev-list', '--count', 'master']).trim()).to.equal('2');
    expectFsckClean(p.dir);
  });

  it('adds stats when asked (stats=true), equal to git numstat', async () => {
    const p = await seeded();
    const r = await commit(p, {
      stats: true,
      actions: [
        { action: 'update', file_path: 'lib/a.rb', content: 'a1\nX\nY\n' },
        { action: 'delete', file_path: 'doc/x.md' },
        { action: 'create', file_path: 'n.txt', content: '1\n2\n3\n4\n' },
      ],
    });
    expect(r.status).to.equal(201);
    let additions = 0;
    let deletions = 0;
    for (const line of git(p.dir, ['diff', '--numstat', 'master^', 'master']).trim().split('\n')) {
      const [a, d] = line.split('\t');
      additions += Number(a);
      deletions += Number(d);
    }
    expect(r.body.stats).to.deep.equal({ additions, deletions, total: additions + deletions });
    expect(r.body.stats).to.deep.equal({ additions: 6, deletions: 3, total: 9 });
  });

  it('sees earlier actions of the same request (create then update the same file)', async () => {
    const p = await seeded();
    const r = await commit(p, {
      actions: [
        { action: 'create', file_path: 't.txt', content: 'first' },
        { action: 'update', file_path: 't.txt', content: 'second' },
        { action: 'chmod', file_path: 't.txt', execute_filemode: true },
        { action: 'chmod', file_path: 'lib/b.rb', execute_filemode: false },
      ],
    });
    expect(r.status).to.equal(201);
    expect(git(p.dir, ['show', 'master:t.txt'])).to.equal('second');
    const files = lsTree(p.dir, 'master');
    expect(files['t.txt']).to.match(/^100755 /);
    expect(files['lib/b.rb']).to.match(/^100644 /);
  });

  it('is all or nothing: one failing action refuses the whole commit, refs and objects untouched', async () => {
    const p = await seeded();
    const before = refState(p.dir);
    const cases: [Record<string, unknown>[], string][] = [
      [
        [
          { action: 'create', file_path: 'ok.txt', content: 'x' },
          { action: 'create', file_path: 'lib/a.rb', content: 'x' },
        ],
        'A file with this name already exists',
      ],
      [[{ action: 'update', file_path: 'nope.rb', content: 'x' }], "A file with this name doesn't exist"],
      [[{ action: 'delete', file_path: 'nope.rb' }], "A file with this name doesn't exist"],
      [[{ action: 'move', previous_path: 'nope.rb', file_path: 'x.rb', content: 'x' }], "A file with this name doesn't exist"],
      [[{ action: 'move', previous_path: 'lib/a.rb', file_path: 'lib/b.rb' }], 'A file with this name already exists'],
      [[{ action: 'chmod', file_path: 'nope.rb', execute_filemode: true }], "A file with this name doesn't exist"],
      [[{ action: 'create_dir', file_path: 'lib' }], 'A directory with this name already exists'],
      [
        [
          { action: 'create', file_path: 'ok.txt', content: 'x' },
          { action: 'frobnicate', file_path: 'x' },
        ],
        "Unknown action 'frobnicate'",
      ],
      [[{ file_path: 'x', content: 'x' }], "Unknown action ''"],
      [[{ action: 'create', file_path: 'x' }], 'You must provide content'],
      [[{ action: 'update', file_path: 'lib/a.rb' }], 'You must provide content'],
      [[{ action: 'create', content: 'x' }], 'You must provide a file path'],
      [[{ action: 'move', file_path: 'y.rb' }], 'You must provide a file path'],
      [[{ action: 'create', file_path: '../x', content: 'x' }], 'Path cannot include directory traversal'],
      [[{ action: 'move', previous_path: '../../etc/passwd', file_path: 'p', content: 'x' }], 'Path cannot include directory traversal'],
      [[{ action: 'create', file_path: '.git/hooks/post-update', content: 'x' }], "invalid path: '.git/hooks/post-update'"],
      [
        [
          { action: 'create', file_path: 'z.txt', content: 'x' },
          { action: 'delete', file_path: 'z.txt' },
        ],
        'The commit would not change any file',
      ],
      [[], 'The commit would not change any file'],
      [[{ action: 'update', file_path: 'lib/a.rb', content: 'a1\na2\na3\n' }], 'The commit would not change any file'],
    ];
    for (const [actions, message] of cases) {
      const r = await commit(p, { actions });
      expect(r.status, message).to.equal(400);
      expect(r.body, JSON.stringify(actions)).to.deep.equal({ message });
    }
    expectUntouched(p.dir, before);
  });

  it('checks each last_commit_id against the file (the previous path of a move)', async () => {
    const p = await seeded();
    const initial = head(p.dir, 'master');
    await commit(p, { actions: [{ action: 'update', file_path: 'doc/x.md', content: 'x2\n' }] });
    let r = await commit(p, { actions: [{ action: 'update', file_path: 'lib/a.rb', content: 'new', last_commit_id: initial }] });
    expect(r.status).to.equal(201);
    const before = refState(p.dir);
    r = await commit(p, { actions: [{ action: 'move', previous_path: 'doc/x.md', file_path: 'd.md', last_commit_id: initial }] });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ message: 'The file has changed since you started editing it: doc/x.md' });
    r = await commit(p, { actions: [{ action: 'delete', file_path: 'lib/a.rb', last_commit_id: initial }] });
    expect(r.body).to.deep.equal({ message: 'The file has changed since you started editing it: lib/a.rb' });
    expectUntouched(p.dir, before);
  });

  it('answers malformed parameters in Grape words', async () => {
    const p = await seeded();
    const before = refState(p.dir);
    let r = await s.post(p.url, { token: alice.token });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: 'branch is missing, commit_message is missing, actions is missing' });
    r = await commit(p, { actions: 'create' });
    expect(r.body).to.deep.equal({ error: 'actions is invalid' });
    r = await commit(p, { actions: ['create'] });
    expect(r.body).to.deep.equal({ error: 'actions is invalid' });
    r = await commit(p, { actions: [{ action: 'chmod', file_path: 'lib/a.rb' }] });
    expect(r.body).to.deep.equal({ error: 'actions[0][execute_filemode] is missing' });
    r = await commit(p, {
      actions: [
        { action: 'create', file_path: 'a', content: 'x' },
        { action: 'chmod', file_path: 'lib/a.rb', execute_filemode: 'maybe' },
      ],
    });
    expect(r.body).to.deep.equal({ error: 'actions[1][execute_filemode] is invalid' });
    r = await commit(p, { actions: [{ action: 'create', file_path: { x: 1 }, content: 'x' }] });
    expect(r.status).to.equal(400);
    expect(r.body).to.deep.equal({ error: 'actions[0][file_path] is invalid' });
    expectUntouched(p.dir, before);
  });

  it('accepts actions from a form body with indexed keys', async () => {
    const p = await seeded();
    const r = await s.post(p.url, {
      token: alice.token,
      form: {
        branch: 'master',
        commit_message: 'form',
        'actions[0][action]': 'create',
        'actions[0][file_path]': 'f1.txt',
        'actions[0][content]': 'one',
        'actions[1][action]': 'delete',
        'actions[1][file_path]': 'README.md',
      },
    });
    expect(r.status, r.text).to.equal(201);
    expect(Object.keys(lsTree(p.dir, 'master')))
      .to.include('f1.txt')
      .and.not.include('README.md');
  });

  it('creates a branch from start_branch, and the first branch of an empty project becomes its default', async () => {
    const p = await seeded();
    const master = head(p.dir, 'master');
    const r = await commit(p, { branch: 'topic', start_branch: 'master', actions: [{ action: 'create', file_path: 't', content: 't' }] });
    expect(r.status).to.equal(201);
    expect(r.body.parent_ids).to.deep.equal([master]);
    expect(head(p.dir, 'topic')).to.equal(r.body.id);
    expect(head(p.dir, 'master')).to.equal(master);

    const e = await project();
    const first = await commit(e, { branch: 'main', actions: [{ action: 'create', file_path: 'a', content: 'a' }] });
    expect(first.status).to.equal(201);
    expect(first.body.parent_ids).to.deep.equal([]);
    expect((await s.get(`/projects/${e.id}`, { token: alice.token })).body.default_branch).to.equal('main');
  });

  it('uses the given author when both author fields are given', async () => {
    const p = await seeded();
    const r = await commit(p, { author_name: 'Jane', author_email: 'jane@example.com', actions: [{ action: 'create', file_path: 'j', content: 'j' }] });
    expect(r.body).to.include({ author_name: 'Jane', author_email: 'jane@example.com', committer_name: 'Alice', committer_email: 'alice@example.com' });
  });

  it('needs developer access, checked before the parameters', async () => {
    const p = await seeded();
    const before = refState(p.dir);
    let r = await s.post(p.url, { token: reporter.token });
    expect(r.status).to.equal(403);
    expect(r.body).to.deep.equal({ message: '403 Forbidden' });
    r = await s.post(p.url, { token: stranger.token });
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
    r = await s.post(p.url, { token: null, json: { branch: 'master', commit_message: 'm', actions: [] } });
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
    expectUntouched(p.dir, before);
  });
});
