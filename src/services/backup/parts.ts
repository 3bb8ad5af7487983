// What a Wharf backup holds, part by part, and where each part lives in the archive and on a
// server: the database (one SQLite file, whatever the engine), the repositories, the CI job
// logs (GitLab's `builds`), the job artifacts, the Git LFS objects and the secrets (the server
// secret and the SSH host key). `--skip` leaves parts out, as GitLab's backup `SKIP=`.
import path from 'node:path';
import type { Config } from '../../config.js';

export const PARTS = ['db', 'repositories', 'builds', 'artifacts', 'lfs', 'secrets'] as const;
export type Part = (typeof PARTS)[number];

/** The parts `--skip` may name (the secrets always go: without them sealed values are lost). */
export const SKIPPABLE: readonly Part[] = ['db', 'repositories', 'builds', 'artifacts', 'lfs'];

/** The archive's folder of each part. */
export const PART_FOLDER: Record<Part, string> = {
  db: 'db',
  repositories: 'repositories',
  builds: 'builds',
  artifacts: 'artifacts',
  lfs: 'lfs',
  secrets: 'secrets',
};

/** The part an archive path belongs to (the manifest's own files: none). */
export function partOf(archivePath: string): Part | null {
  const top = archivePath.replace(/^\.\//, '').split('/')[0];
  return (PARTS as readonly string[]).includes(top) ? (top as Part) : null;
}

/** Where a data part's files live on a server: folders of Wharf's own `@wharf/`. */
export function dataFolder(config: Pick<Config, 'reposDir'>, part: 'builds' | 'artifacts' | 'lfs'): string {
  const meta = path.join(config.reposDir, '@wharf');
  if (part === 'builds') return path.join(meta, 'ci', 'traces');
  if (part === 'artifacts') return path.join(meta, 'ci', 'artifacts');
  return path.join(meta, 'lfs', 'objects');
}

/** The secrets' files on a server, by their name in the archive. */
export function secretFiles(config: Pick<Config, 'serverSecret' | 'sshHostKey'>): Record<string, string> {
  return { server_secret: config.serverSecret, ssh_host_ed25519_key: config.sshHostKey, 'ssh_host_ed25519_key.pub': `${config.sshHostKey}.pub` };
}

/** The database file's name in the archive. */
export const DATABASE_FILE = 'db/wharf.sqlite3';
export const MANIFEST_FILE = 'manifest.json';
