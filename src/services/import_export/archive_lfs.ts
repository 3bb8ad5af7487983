// A project's Git LFS objects in an export archive, as GitLab 10.8's LfsSaver and LfsRestorer keep
// them: one file per object in the archive's `lfs-objects/` folder, named by its oid. Exporting
// links each stored file into the folder the archive is made from (no copy). Importing streams
// each file into the store, checked like an upload (its name must be its SHA-256, or it is left
// out), before the import's transaction, which then records and links them.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import type { ReceivedObject } from '../../git/lfs_store.js';
import { isLfsOid, LfsUploadRefused } from '../../git/lfs_store.js';
import { lfsObjectsOfProject } from '../../finders/lfs_objects.js';
import { lfsStore, recordLfsObject } from '../lfs/objects.js';

const FOLDER = 'lfs-objects';

export async function saveLfsObjects(deps: Deps, projectId: number, tree: string): Promise<void> {
  const objects = await lfsObjectsOfProject(deps.db, projectId);
  if (objects.length === 0) return;
  const store = lfsStore(deps);
  await fs.promises.mkdir(path.join(tree, FOLDER));
  for (const { oid } of objects) {
    const target = path.join(tree, FOLDER, oid);
    try {
      await fs.promises.link(store.pathOf(oid), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // recorded, but its file is gone: left out
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.promises.copyFile(store.pathOf(oid), target);
    }
  }
}

export interface ArchivedLfsObject {
  oid: string;
  size: number;
  received: ReceivedObject;
}

/** Puts the archive's objects in the store; the caller records them and discards the temporary files. */
export async function receiveArchivedLfsObjects(deps: Deps, unpacked: string): Promise<ArchivedLfsObject[]> {
  const folder = path.join(unpacked, FOLDER);
  const names = await fs.promises.readdir(folder).catch(() => [] as string[]);
  const store = lfsStore(deps);
  const out: ArchivedLfsObject[] = [];
  for (const name of names) {
    if (!isLfsOid(name)) continue;
    const file = path.join(folder, name);
    const stat = await fs.promises.lstat(file);
    if (!stat.isFile()) continue;
    try {
      const received = await store.receive(name, stat.size, fs.createReadStream(file));
      await received.place();
      out.push({ oid: name, size: stat.size, received });
    } catch (err) {
      if (!(err instanceof LfsUploadRefused)) throw err;
    }
  }
  return out;
}

export async function recordArchivedLfsObjects(tx: Conn, projectId: number, objects: ArchivedLfsObject[]): Promise<void> {
  for (const o of objects) await recordLfsObject(tx, projectId, o.oid, o.size);
}

export async function discardArchivedLfsObjects(objects: ArchivedLfsObject[]): Promise<void> {
  for (const o of objects) await o.received.discard();
}
