// Two Wharf processes on one database and one repositories folder (the worker processes of
// one installation) renaming and deleting projects while both write to them:
// the repository lock must hold across processes. Every 201 commit must be on its
// branch in the repository of its project, every deleted project's folder must be gone and
// no folder may be left that no project owns.
import path from 'node:path';
import { expect } from 'chai';
import { ChildServer, tempDataDir, removeDataDir } from '../helpers/child_server.js';
import { expectFsckClean, head } from '../helpers/bare_git.js';
import { repositoriesOnDisk } from '../helpers/disk.js';
import type { Reply } from '../helpers/server.js';

describe('Renames and deletes under write load from two processes', function () {
  this.timeout(180_000);
  let dir: string;
  let a: ChildServer;
  let b: ChildServer;

  before(async () => {
    dir = tempDataDir();
    a = await ChildServer.start(dir); // migrates and creates root first
    b = await ChildServer.start(dir);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await removeDataDir(dir);
  });

  function expectClean(r: Reply): void {
    expect([201, 400, 404, 409], r.text).to.include(r.status);
    if (r.status === 404) expect(r.body).to.deep.equal({ message: '404 Project Not Found' });
  }

  it('keeps every 201 commit in its project repository and leaves no orphaned folder', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await a.request('POST', '/projects', { json: { name: `load-${i}` } });
      expect(p.status, p.text).to.equal(201);
      const seed = await b.request('POST', `/projects/${p.body.id}/repository/commits`, {
        json: { branch: 'master', commit_message: 'seed', actions: [{ action: 'create', file_path: 'README.md', content: 'seed\n' }] },
      });
      expect(seed.status, seed.text).to.equal(201);
      ids.push(p.body.id);
    }
    const renamed = ids.slice(0, 3);
    const deleted = ids.slice(3, 5);
    const landed: { project: number; branch: string; sha: string }[] = [];
    let seq = 0;
    let done = false;

    const writer = async (project: number) => {
      for (let n = 0; !done || n < 12; n++) {
        const i = seq++;
        const server = i % 2 ? a : b;
        const branch = `w${i}`;
        const r = await server.request('POST', `/projects/${project}/repository/commits`, {
          json: { branch, start_branch: 'master', commit_message: `c${i}`, actions: [{ action: 'create', file_path: `f${i}.txt`, content: `${i}\n` }] },
        });
        expectClean(r);
        if (r.status === 201) landed.push({ project, branch, sha: r.body.id });
        if (r.status === 404 || n > 60) return;
      }
    };
    const renamer = async (project: number) => {
      for (let i = 0; i < 8; i++) {
        const server = i % 2 ? b : a;
        const r = await server.request('PUT', `/projects/${project}`, { json: { path: `load-${project}-v${i}` } });
        expect(r.status, r.text).to.equal(200);
      }
    };
    const deleter = async (project: number, after: number) => {
      await new Promise((r) => setTimeout(r, after));
      const r = await (project % 2 ? a : b).request('DELETE', `/projects/${project}`);
      expect(r.status, r.text).to.equal(202);
    };

    const writers = ids.flatMap((id) => [writer(id), writer(id)]);
    await Promise.all([...renamed.map(renamer), ...deleted.map((id, i) => deleter(id, 150 + 100 * i))]);
    done = true;
    await Promise.all(writers);

    const list = await a.request('GET', '/projects');
    const paths = new Map<number, string>((list.body as any[]).map((p) => [p.id, p.path_with_namespace]));
    expect([...paths.keys()].sort()).to.deep.equal(ids.filter((id) => !deleted.includes(id)).sort());
    for (const id of renamed) expect(paths.get(id)).to.equal(`root/load-${id}-v7`);
    for (const c of landed) {
      if (deleted.includes(c.project)) continue;
      expect(head(path.join(dir, 'repos', `${paths.get(c.project)}.git`), c.branch), `${c.branch} of project ${c.project}`).to.equal(c.sha);
    }
    for (const fullPath of paths.values()) expectFsckClean(path.join(dir, 'repos', `${fullPath}.git`));
    expect(repositoriesOnDisk(path.join(dir, 'repos'))).to.deep.equal([...paths.values()].sort());
    expect(landed.filter((c) => !deleted.includes(c.project)).length).to.be.greaterThan(40);
  });
});
