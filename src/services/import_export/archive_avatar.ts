// The project's avatar in an export archive, as GitLab 10.8's AvatarSaver and AvatarRestorer
// keep it: the image alone in the archive's `avatar/` folder. Reading it back applies the
// rules of an uploaded avatar (an image extension, at most 200 KB); anything else there is
// left out rather than failing the import.
import fs from 'node:fs';
import path from 'node:path';
import type { Conn } from '../../store/db.js';
import { readAvatar, storeAvatar } from '../avatars.js';

/** Writes the project's avatar into `<tree>/avatar/` when it has one. */
export async function saveAvatar(db: Conn, projectId: number, tree: string): Promise<void> {
  const row: { filename: string; data: Buffer | Uint8Array } | undefined = await db('avatars').where({ model: 'project', model_id: projectId }).first('filename', 'data');
  if (!row) return;
  await fs.promises.mkdir(path.join(tree, 'avatar'));
  await fs.promises.writeFile(path.join(tree, 'avatar', path.basename(row.filename)), Buffer.from(row.data));
}

/** Restores the avatar of an unpacked archive, inside the import's transaction; whether there was one. */
export async function restoreAvatar(tx: Conn, projectId: number, unpacked: string): Promise<boolean> {
  const folder = path.join(unpacked, 'avatar');
  const names = await fs.promises.readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(folder, name);
    const stat = await fs.promises.lstat(file);
    if (!stat.isFile()) continue;
    try {
      await storeAvatar(tx, 'project', projectId, await readAvatar({ filename: name, path: file, size: stat.size }));
      return true;
    } catch {
      // not an image GitLab would take: the project keeps no avatar
    }
  }
  return false;
}
