// The declared route table (`make routes`) against the copy kept in test/fixtures/routes.txt:
// a refactoring that moves routes between files, renames or regroups them must leave every
// route's method, path, auth, load, ability, status and summary, and their order (which decides
// how @koa/router matches), as they were. A deliberate change to the API updates the copy:
// `npm run --silent routes > test/fixtures/routes.txt` after a build, reviewed in the diff.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { formatRouteTable } from '../../src/api/core/route_tables.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the declared route table', () => {
  it('is the one kept in test/fixtures/routes.txt, line for line', () => {
    const kept = fs.readFileSync(path.join(repoRoot, 'test/fixtures/routes.txt'), 'utf8').trimEnd().split('\n');
    const now = formatRouteTable().trimEnd().split('\n');
    const added = now.filter((line) => !kept.includes(line));
    const removed = kept.filter((line) => !now.includes(line));
    expect({ added, removed }, 'routes changed: update test/fixtures/routes.txt if that is meant').to.deep.equal({ added: [], removed: [] });
    expect(now, 'the same routes in another order (matching order changed)').to.deep.equal(kept);
  });
});
