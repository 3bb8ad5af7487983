// Git objects of one repository are never read through another ("a stranger must
// never touch another project"): knowing the id of a commit, tree or blob of a private project
// — from a leaked log, or from the time one was a member — gives nothing through one's own
// project, even just after the owner read that object (whatever a process caches).
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { commitFiles, createProject } from '../helpers/projects.js';

describe('Git objects across projects', function () {
  this.timeout(60_000);
  let s: TestServer;
  let victim: { token: string };
  let mallory: { token: string };

  before(async () => {
    s = await bootServer();
    victim = await s.createUser('victim');
    mallory = await s.createUser('mallory');
  });
  after(() => s.close());

  it("answers 404 through a stranger's own project for a private project's commit, tree and blob", async () => {
    const secret = await createProject(s, victim.token, { name: 'secret', visibility: 'private' });
    const sha = await commitFiles(s, secret.id, 'master', [{ action: 'create', file_path: 'plans/launch.txt', content: 'the launch date' }], {
      token: victim.token,
      message: 'Secret plans',
    });
    const own = await createProject(s, mallory.token, { name: 'own', initialize_with_readme: true });
    // The owner reads everything first: the commit, its tree, the file and its blob.
    const asVictim = { token: victim.token };
    expect((await s.get(`/projects/${secret.id}/repository/commits/${sha}`, asVictim)).status).to.equal(200);
    const tree = (await s.get(`/projects/${secret.id}/repository/tree`, { ...asVictim, query: { ref: sha, recursive: 'true' } })).body;
    const blob = tree.find((e: { path: string }) => e.path === 'plans/launch.txt');
    const dir = tree.find((e: { path: string }) => e.path === 'plans');
    expect((await s.get(`/projects/${secret.id}/repository/files/plans%2Flaunch.txt`, { ...asVictim, query: { ref: sha } })).status).to.equal(200);
    expect((await s.get(`/projects/${secret.id}/repository/blobs/${blob.id}/raw`, asVictim)).status).to.equal(200);

    const asMallory = { token: mallory.token };
    const reads = [
      [`/projects/${own.id}/repository/commits/${sha}`, {}],
      [`/projects/${own.id}/repository/commits/${sha}/diff`, {}],
      [`/projects/${own.id}/repository/commits/${sha}/refs`, {}],
      [`/projects/${own.id}/repository/commits`, { ref_name: sha }],
      [`/projects/${own.id}/repository/tree`, { ref: sha }],
      [`/projects/${own.id}/repository/tree`, { ref: sha, path: 'plans' }],
      [`/projects/${own.id}/repository/files/plans%2Flaunch.txt`, { ref: sha }],
      [`/projects/${own.id}/repository/files/plans%2Flaunch.txt/raw`, { ref: sha }],
      [`/projects/${own.id}/repository/blobs/${blob.id}`, {}],
      [`/projects/${own.id}/repository/blobs/${blob.id}/raw`, {}],
      [`/projects/${own.id}/repository/blobs/${dir.id}`, {}],
      [`/projects/${own.id}/repository/archive`, { sha }],
      [`/projects/${own.id}/repository/compare`, { from: 'master', to: sha }],
    ] as const;
    for (const [path, query] of reads) {
      const r = await s.get(path, { ...asMallory, query: query as Record<string, string> });
      // 404 (or 400), or what 10.8 answers for a ref it does not know: no commits, an empty compare.
      const where = `${path} ${JSON.stringify(query)}: ${r.status} ${r.text.slice(0, 200)}`;
      expect(r.status, where).to.be.oneOf([200, 400, 404]);
      if (r.status === 200) expect(r.text, where).to.be.oneOf(['[]', '{"commit":null,"commits":[],"diffs":[],"compare_timeout":false,"compare_same_ref":false}']);
      expect(r.text, where).to.not.include(sha);
      expect(r.text, where).to.not.include(blob.id);
      expect(r.text, path).to.not.include('Secret plans');
      expect(r.text, path).to.not.include('the launch date');
      expect(r.text, path).to.not.include('launch.txt');
    }
    // Nor can a ref of one's own be made to point at it.
    const writes = [
      [`/projects/${own.id}/repository/branches`, { branch: 'stolen', ref: sha }],
      [`/projects/${own.id}/repository/tags`, { tag_name: 'stolen', ref: sha }],
      [`/projects/${own.id}/repository/commits/${sha}/cherry_pick`, { branch: 'master' }],
    ] as const;
    for (const [path, json] of writes) {
      const r = await s.post(path, { ...asMallory, json });
      expect(r.status, `${path}: ${r.status} ${r.text.slice(0, 200)}`).to.be.oneOf([400, 404]);
      expect(r.text, path).to.not.include('Secret plans');
    }
    const refs = (await s.get(`/projects/${own.id}/repository/branches`, asMallory)).body.map((b: { name: string }) => b.name);
    expect(refs).to.deep.equal(['master']);
  });
});
