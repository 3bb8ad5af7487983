// What is on disk under a repositories root, for tests that check no folder is orphaned.
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every repository folder (`*.git`) under `root`, as `namespace/project` paths, sorted.
 * Wharf's own bookkeeping folder (`@wharf`: locks, journal, trash) is not a repository.
 */
export function repositoriesOnDisk(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || (rel === '' && e.name.startsWith('@'))) continue;
      if (e.name.endsWith('.git')) out.push(`${rel}${e.name.slice(0, -4)}`);
      else walk(path.join(dir, e.name), `${rel}${e.name}/`);
    }
  };
  walk(root, '');
  return out.sort();
}
