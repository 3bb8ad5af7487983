// Services live in feature folders (src/services/<feature>/…): a new flat file in src/services/
// fails here, named, with where to put it. Only the two small services that belong to no feature
// stay flat. Runs from dist/test/lint/, so the source folder is found from the repository root.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const servicesDir = path.join(repoRoot, 'src/services');
const ALLOWED_FLAT = ['avatars.ts', 'badges.ts'];

describe('src/services layout', () => {
  it('has no flat file beyond avatars.ts and badges.ts', () => {
    expect(fs.existsSync(servicesDir), `${servicesDir} not found`).to.equal(true);
    const flat = fs
      .readdirSync(servicesDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !ALLOWED_FLAT.includes(entry.name))
      .map((entry) => entry.name)
      .sort();
    const folders = fs
      .readdirSync(servicesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const advice = flat.map(
      (name) =>
        `src/services/${name} sits flat in src/services/: move it into its feature's folder, ` +
        `src/services/<feature>/${name} (one of ${folders.join(', ')}, or a new folder for a new feature); ` +
        `only ${ALLOWED_FLAT.join(' and ')} stay flat (test/lint/services_layout.test.ts)`,
    );
    expect(flat, advice.join('\n')).to.deep.equal([]);
  });
});
