// What a Wharf backup holds, part by part, and where each part lives in the archive and on a
// server: the database (one SQLite file, whatever the engine), the repositories, the CI job
// logs (GitLab's `builds`), the job artifacts, the Git LFS objects, the files uploaded to
// projects and the secrets (the server secret and the SSH host key). `--skip` leaves parts out, as GitLab's backup `SKIP=`.
import path from 'node:path';
import type { Config } from '../../config.js';

export const PARTS = ['db', 'repositories', 'builds', 'artifacts', 'lfs', 'uploads', 'secrets'] as const;
export type Part = (typeof PARTS)[number];

/** The parts `--skip` may name (the secrets always go: without them sealed values are lost). */
export const SKIPPABLE: readonly Part[] = ['db', 'repositories', 'builds', 'artifacts', 'lfs', 'uploads'];

/** The archive's folder of each part. */
export const PART_FOLDER: Record<Part, string> = {
  db: 'db',
  repositories: 'repositories',
  builds: 'builds',
  artifacts: 'artifacts',
  lfs: 'lfs',
  uploads: 'uploads',
  secrets: 'secrets',
};

/** The part an archive path belongs to (the manifest's own files: none). */
export function partOf(archivePath: string): Part | null {
  const top = archivePath.replace(/^\.\//, '').split('/')[0];
  return (PARTS as readonly string[]).includes(top) ? (top as Part) : null;
}

/** Where a data part's files live on a server: folders of Wharf's own `@wharf/`. */
export type DataPart = 'builds' | 'artifacts' | 'lfs' | 'uploads';
export const DATA_PARTS: readonly DataPart[] = ['builds', 'artifacts', 'lfs', 'uploads'];

export function dataFolder(config: Pick<Config, 'reposDir'>, part: DataPart): string {
  const meta = path.join(config.reposDir, '@wharf');
  if (part === 'builds') return path.join(meta, 'ci', 'traces');
  if (part === 'artifacts') return path.join(meta, 'ci', 'artifacts');
  if (part === 'uploads') return path.join(meta, 'uploads', 'objects');
  return path.join(meta, 'lfs', 'objects');
}

/** The secrets' files on a server, by their name in the archive. */
export function secretFiles(config: Pick<Config, 'serverSecret' | 'sshHostKey'>): Record<string, string> {
  return { server_secret: config.serverSecret, ssh_host_ed25519_key: config.sshHostKey, 'ssh_host_ed25519_key.pub': `${config.sshHostKey}.pub` };
}

/** The database file's name in the archive. */
export const DATABASE_FILE = 'db/wharf.sqlite3';
export const MANIFEST_FILE = 'manifest.json';
