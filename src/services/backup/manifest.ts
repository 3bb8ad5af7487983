// A backup's manifest (`manifest.json`, the archive's last entry): Wharf's version, the engine it
// came from, the date, the migrations its database has, the parts it holds or skipped, and the
// size and SHA-256 of every file (and of each part: a SHA-256 over its files' paths and
// digests). A restore checks every file against it before anything is written, and names the
// part that does not match.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StagedFile } from './staging.js';
import { PARTS, type Part } from './parts.js';

export const BACKUP_FORMAT = 'wharf-backup/1';

export interface PartSummary {
  files: number;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: string;
  wharf_version: string;
  created_at: string;
  engine: 'sqlite' | 'postgresql';
  migrations: string[];
  last_migration: string | null;
  skipped: Part[];
  parts: Partial<Record<Part, PartSummary>>;
  files: StagedFile[];
}

/** This build's version (package.json). */
export function wharfVersion(): string {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

export function partDigest(files: StagedFile[]): string {
  const hash = crypto.createHash('sha256');
  for (const f of files) hash.update(`${f.path}\0${f.sha256}\0`);
  return hash.digest('hex');
}

export function summarize(files: StagedFile[], skipped: Part[]): Partial<Record<Part, PartSummary>> {
  const parts: Partial<Record<Part, PartSummary>> = {};
  for (const part of PARTS) {
    if (skipped.includes(part)) continue;
    const of = files.filter((f) => f.part === part);
    parts[part] = { files: of.length, bytes: of.reduce((n, f) => n + f.size, 0), sha256: partDigest(of) };
  }
  return parts;
}
