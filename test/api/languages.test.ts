// GET /projects/:id/languages (GitLab 10.8 lib/api/projects.rb, Repository#languages with
// github-linguist): the default branch's byte share per counted language, in percent with two
// decimals, largest first; history made with the real git.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { useServerWithRoles, projectWithRoles } from '../helpers/roles.js';
import { repoDir } from '../helpers/projects.js';
import { cloneOf } from '../helpers/git_history.js';

describe('Projects API: languages', () => {
  const { s, owner, master, dev, reporter, guest, stranger } = useServerWithRoles();
  let counter = 0;

  const project = (visibility = 'private') => projectWithRoles(s, owner, { master, dev, reporter, guest }, { name: `lang${++counter}`, visibility });
  const languages = (id: number, token: string | null = owner.token) => s.get(`/projects/${id}/languages`, { token });
  const bytes = (n: number) => 'x'.repeat(n - 1) + '\n';

  it('shares the counted bytes among the languages: vendored, documentation, data, prose, symlinks and empty files left out', async () => {
    const p = await project();
    const w = cloneOf(repoDir(s, p.path_with_namespace));
    try {
      w.write('lib/a.rb', bytes(600));
      w.write('lib/b.rb', bytes(66));
      w.write('app.js', bytes(300));
      w.write('web/style.css', bytes(34));
      w.write('lib/types.d.ts', bytes(100)); // TypeScript
      w.write('Rakefile', bytes(100)); // Ruby, by its file name
      w.write('README.md', bytes(5000)); // documentation
      w.write('docs/guide.rb', bytes(5000)); // documentation
      w.write('vendor/lib.js', bytes(5000)); // vendored
      w.write('node_modules/x/index.js', bytes(5000)); // vendored
      w.write('public/app.min.js', bytes(5000)); // vendored
      w.write('data.json', bytes(5000)); // data
      w.write('notes.txt', bytes(5000)); // prose
      w.write('empty.rb', '');
      w.write('unknown.zzz', bytes(5000));
      fs.symlinkSync('app.js', path.join(w.dir, 'link.js'));
      w.commit('Languages', '2018-01-01T10:00:00Z');
      w.push('master');
    } finally {
      fs.rmSync(w.dir, { recursive: true, force: true });
    }
    // Ruby 766, JavaScript 300, TypeScript 100, CSS 34: 1200 bytes.
    const r = await languages(p.id);
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.equal({ Ruby: 63.83, JavaScript: 25, TypeScript: 8.33, CSS: 2.83 });
    expect(Object.keys(r.body)).to.deep.equal(['Ruby', 'JavaScript', 'TypeScript', 'CSS']);
  });

  it('follows the default branch as it moves, and answers {} for an empty repository', async () => {
    const p = await project();
    expect((await languages(p.id)).body).to.deep.equal({});
    const w = cloneOf(repoDir(s, p.path_with_namespace));
    try {
      w.write('main.go', bytes(10));
      w.commit('Go', '2018-01-01T10:00:00Z');
      w.push('master');
      expect((await languages(p.id)).body).to.deep.equal({ Go: 100 });
      w.write('main.py', bytes(30));
      w.commit('Python', '2018-01-01T11:00:00Z');
      w.git(['push', '-q', 'origin', 'master:topic']); // another branch: not counted
      expect((await languages(p.id)).body).to.deep.equal({ Go: 100 });
      w.push('master');
      expect((await languages(p.id)).body).to.deep.equal({ Python: 75, Go: 25 });
    } finally {
      fs.rmSync(w.dir, { recursive: true, force: true });
    }
  });

  describe('the permission matrix: whoever sees the project (10.8 asks nothing more)', () => {
    const HIDDEN = [404, { message: '404 Project Not Found' }];
    const SHOWN = [200, {}];
    const cases: Record<string, Record<string, unknown[]>> = {
      private: { anonymous: HIDDEN, stranger: HIDDEN, guest: SHOWN, reporter: SHOWN, dev: SHOWN, master: SHOWN },
      internal: { anonymous: HIDDEN, stranger: SHOWN, guest: SHOWN, reporter: SHOWN, dev: SHOWN, master: SHOWN },
      public: { anonymous: SHOWN, stranger: SHOWN, guest: SHOWN, reporter: SHOWN, dev: SHOWN, master: SHOWN },
    };
    for (const [visibility, expected] of Object.entries(cases)) {
      it(`a ${visibility} project`, async () => {
        const p = await project(visibility);
        const who: Record<string, { token: string } | null> = { anonymous: null, stranger, guest, reporter, dev, master };
        for (const [name, want] of Object.entries(expected)) {
          const r = await languages(p.id, who[name]?.token ?? null);
          expect([r.status, r.body], name).to.deep.equal(want);
        }
      });
    }
  });
});
