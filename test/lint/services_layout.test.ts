// Services live in feature folders (src/services/<feature>/…): a new flat file in src/services/
// fails here, named, with where to put it. Flat stay only the notifier (notify.ts and the
// announcements it carries, domain_events.ts) and three small services that serve users,
// projects and groups alike (avatars, badges, custom attributes). Runs from dist/test/lint/, so the source folder is found from the repository root.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const servicesDir = path.join(repoRoot, 'src/services');
const ALLOWED_FLAT = ['notify.ts', 'domain_events.ts', 'avatars.ts', 'badges.ts', 'custom_attributes.ts'];

describe('src/services layout', () => {
  it('has no flat file beyond the notifier, avatars, badges and custom attributes', () => {
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
        `only ${ALLOWED_FLAT.join(', ')} stay flat (test/lint/services_layout.test.ts)`,
    );
    expect(flat, advice.join('\n')).to.deep.equal([]);
  });
});
