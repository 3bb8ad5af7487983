// Uploaded avatars (GitLab 10.8's Avatarable): the `avatar` file of POST/PUT /users, /projects
// and /groups. 10.8 checks the file name's extension against its image list and the size
// against 200 KB, and a model with a bad avatar fails validation with `avatar: [...]` in its
// words (400). The image is stored with its owner (table `avatars`) and served at the path
// 10.8's AvatarUploader gives it, `/uploads/-/system/<model>/avatar/<id>/<filename>`, which the
// owner's `avatar_url` column keeps (entities make it absolute). Checked before the owner is
// written; stored in one transaction with the owner's avatar_url.
import fsp from 'node:fs/promises';
import type { Conn } from '../store/db.js';
import { now } from '../store/time.js';
import { Invalid } from '../store/domain_errors.js';

export type AvatarModel = 'user' | 'project' | 'group';

/** 10.8's `validates :avatar, file_size: { maximum: 200.kilobytes }`. */
const AVATAR_MAX_BYTES = 200 * 1024;
/** UploaderHelper::IMAGE_EXT, in 10.8's order (its error message lists them). */
const IMAGE_EXT = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff'];

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
};

/** An uploaded file as the API hands it over (on disk until the request ends). */
export interface AvatarFile {
  filename: string;
  path: string;
  size: number;
}

/** A checked avatar, read into memory (at most AVATAR_MAX_BYTES). */
export interface Avatar {
  filename: string;
  data: Buffer;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * CarrierWave's sanitised file name, kept to safe URL characters: anything else becomes `_`,
 * no leading dot, at most 100 characters with the extension kept.
 */
function avatarFilename(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  let out = '';
  for (const ch of base) out += (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch === '_' || ch === '-' || ch === '.' ? ch : '_';
  if (out.startsWith('.')) out = `_${out.slice(1)}`;
  if (out.length > 100) {
    const ext = extensionOf(out);
    out = `${out.slice(0, 99 - ext.length)}.${ext}`;
  }
  return out;
}

/** Refuses a file 10.8 would refuse (Invalid: 400 {message: {avatar: [...]}}), else reads it. */
export async function readAvatar(file: AvatarFile): Promise<Avatar> {
  const errors: string[] = [];
  if (!IMAGE_EXT.includes(extensionOf(file.filename))) {
    errors.push(`file format is not supported. Please try one of the following supported formats: ${IMAGE_EXT.join(', ')}`);
  }
  if (file.size > AVATAR_MAX_BYTES) errors.push('is too big (should be at most 200 KB)');
  if (errors.length) throw new Invalid({ avatar: errors });
  return { filename: avatarFilename(file.filename), data: await fsp.readFile(file.path) };
}

const OWNER_TABLES: Record<AvatarModel, string> = { user: 'users', project: 'projects', group: 'namespaces' };

function avatarPath(model: AvatarModel, id: number, filename: string): string {
  return `/uploads/-/system/${model}/avatar/${id}/${filename}`;
}

/** Stores the avatar of an owner (replacing any) and points its avatar_url at it; the path. */
export async function storeAvatar(db: Conn, model: AvatarModel, id: number, avatar: Avatar): Promise<string> {
  const path = avatarPath(model, id, avatar.filename);
  await db.transaction(async (tx) => {
    await tx('avatars').where({ model, model_id: id }).delete();
    await tx('avatars').insert({ model, model_id: id, filename: avatar.filename, data: avatar.data, created_at: now() });
    await tx(OWNER_TABLES[model]).where({ id }).update({ avatar_url: path });
  });
  return path;
}

/** The stored image at that path, with its content type; null when there is none. */
export async function findAvatar(db: Conn, model: AvatarModel, id: number, filename: string): Promise<{ data: Buffer; contentType: string; createdAt: string } | null> {
  const row: { data: Buffer | Uint8Array; created_at: string } | undefined = await db('avatars').where({ model, model_id: id, filename }).first('data', 'created_at');
  if (!row) return null;
  return { data: Buffer.from(row.data), contentType: CONTENT_TYPES[extensionOf(filename)] ?? 'application/octet-stream', createdAt: row.created_at };
}
