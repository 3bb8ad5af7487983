// Checking an unpacked backup against its manifest before anything is restored: the manifest
// is there and of this format, every file it lists is there with its size and SHA-256, nothing
// else is, each part's digest matches, and the database has no migration this Wharf does not
// know (a newer Wharf's backup). Each refusal names the part that is wrong.
import fs from 'node:fs';
import path from 'node:path';
import { migrationsDir } from '../../store/db.js';
import { filesUnder } from '../../git/files_under.js';
import { sha256Of } from './staging.js';
import { BACKUP_FORMAT, partDigest, type Manifest } from './manifest.js';
import { MANIFEST_FILE, PARTS, partOf } from './parts.js';

/** A backup that will not be restored, and why (printed as it is). */
export class BackupRefused extends Error {}

export async function readManifest(root: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fs.promises.readFile(path.join(root, MANIFEST_FILE), 'utf8')) as Manifest;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupRefused('The archive has no manifest: it is truncated, or not a Wharf backup.');
    throw new BackupRefused('The manifest is damaged: it is not valid JSON.');
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.files) || !Array.isArray(manifest.migrations)) {
    throw new BackupRefused(`The manifest is damaged or of another format (expected ${BACKUP_FORMAT}).`);
  }
  return manifest;
}

export async function verifyUnpacked(root: string, manifest: Manifest): Promise<void> {
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const rel of await filesUnder(root)) {
    if (rel !== MANIFEST_FILE && !listed.has(rel)) throw new BackupRefused(`The ${partOf(rel) ?? 'unknown'} part is damaged: ${rel} is not in the manifest.`);
  }
  for (const f of manifest.files) {
    const part = partOf(f.path);
    if (part === null || part !== f.part || f.path.split('/').includes('..')) throw new BackupRefused(`The manifest is damaged: ${JSON.stringify(f.path)} is outside every part.`);
    const file = path.join(root, f.path);
    if (!fs.existsSync(file)) throw new BackupRefused(`The ${part} part is incomplete: ${f.path} is missing (a truncated archive?).`);
    const actual = await sha256Of(file);
    if (actual.size !== f.size || actual.sha256 !== f.sha256) throw new BackupRefused(`The ${part} part is damaged: ${f.path} does not match its checksum.`);
  }
  for (const part of PARTS) {
    const summary = manifest.parts[part];
    if (!summary) continue;
    const of = manifest.files.filter((f) => f.part === part);
    if (summary.files !== of.length || summary.sha256 !== partDigest(of)) throw new BackupRefused(`The ${part} part is damaged: its files do not match its digest.`);
  }
  const known = new Set(fs.readdirSync(migrationsDir).filter((n) => n.endsWith('.js')));
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length) {
    throw new BackupRefused(
      `The db part comes from a newer Wharf (${manifest.wharf_version}): its database has migrations this version does not know (${unknown.join(', ')}). Restore it with that version or a later one.`,
    );
  }
}
