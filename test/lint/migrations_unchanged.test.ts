// A migration that has landed is never edited: a database migrated by an earlier Wharf has
// run it and never runs it again, so an edit reaches only new databases and the schemas
// diverge. A change is a new migration. Each file in migrations/ (as it is on disk, so an edit not
// yet committed fails too) must be the version of the commit that added it. Skipped where
// there is no history to compare with: not a git checkout, or a shallow clone.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = 'migrations';

// These were edited after they landed, before this check existed (path comments after moves,
// the dialect test, and schema changes: project_statistics in the foundation, two more cache
// epoch tables, no foreign keys on discussions' new columns). Databases made before those
// edits keep the older schema; the edits stay, and from here on these files must stay as they
// were at this commit.
const BASELINE = '1dab47ff6f2b336613ddf32e7197eafb6c4aa516';
const EDITED_BEFORE_THIS_CHECK = new Set([
  '20261122000001_foundation.ts',
  '20261122000015_search_index.ts',
  '20261122000022_pushes_since_gc.ts',
  '20261122000025_project_counters.ts',
  '20261122000026_cache_epoch_triggers.ts',
  '20261122000028_keys.ts',
  '20261122000032_discussions.ts',
  '20261122000034_snippets_badges.ts',
  '20261122000035_pages_domains.ts',
  '20261122000040_project_exports.ts',
]);

function git(...args: string[]): Buffer {
  return execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
}

/** Whether ROOT is a git checkout with its whole history. */
function fullHistory(): boolean {
  try {
    return git('rev-parse', '--is-inside-work-tree').toString().trim() === 'true' && git('rev-parse', '--is-shallow-repository').toString().trim() === 'false';
  } catch {
    return false;
  }
}

/** The commit a file is compared with: the one that added it (undefined while it is not committed). */
function referenceOf(file: string): string | undefined {
  if (EDITED_BEFORE_THIS_CHECK.has(path.basename(file))) return BASELINE;
  const adds = git('log', '--diff-filter=A', '--format=%H', '--', file).toString().trim().split('\n').filter(Boolean);
  return adds.at(-1);
}

describe('Landed migrations', function () {
  before(function () {
    if (!fullHistory()) this.skip();
  });

  it('are as they landed', function () {
    const files = fs
      .readdirSync(path.join(ROOT, DIR))
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => `${DIR}/${f}`);
    expect(files.length).to.be.greaterThan(EDITED_BEFORE_THIS_CHECK.size);
    const changed: string[] = [];
    let compared = 0;
    for (const file of files) {
      const reference = referenceOf(file);
      if (!reference) continue; // a new migration, not landed yet
      compared++;
      if (!git('show', `${reference}:${file}`).equals(fs.readFileSync(path.join(ROOT, file)))) changed.push(file);
    }
    expect(compared, 'migrations compared').to.be.greaterThan(EDITED_BEFORE_THIS_CHECK.size);
    expect(changed, 'landed migrations edited (write a new migration instead)').to.deep.equal([]);
  });
});
