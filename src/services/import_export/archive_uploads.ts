// A project's uploaded files in an export archive, as GitLab 10.8's UploadsSaver and
// UploadsRestorer keep them: `uploads/<secret>/<filename>`, so that the Markdown links of the
// imported issues and notes (`/uploads/<secret>/<filename>`) still lead to them. Exporting links
// each stored file into the folder the archive is made from; importing takes only what has the
// shape of an upload (a 32-hex secret, a sanitized file name, a plain file), stores it before
// the import's transaction, which then records it.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import { uploadsOfProject } from '../../finders/uploads.js';
import { storeUploadedFile, uploadPath } from '../uploads/store.js';
import { sanitizedFilename } from '../uploads/names.js';
import { recordUpload } from '../uploads/uploads.js';

const FOLDER = 'uploads';
const SECRET = /^[0-9a-f]{32}$/;

/**
 * Links each stored file in once; a content uploaded twice is copied the second time (tar would
 * write a hard link, which importers refuse).
 */
export async function saveUploads(deps: Deps, projectId: number, tree: string): Promise<void> {
  const linked = new Set<string>();
  for (const u of await uploadsOfProject(deps.db, projectId)) {
    const source = uploadPath(deps.repos.root, u.sha256);
    const target = path.join(tree, FOLDER, u.secret, u.filename);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      if (linked.has(u.sha256)) await fs.promises.copyFile(source, target);
      else await fs.promises.link(source, target);
      linked.add(u.sha256);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // recorded, but its file is gone: left out
      if (code !== 'EXDEV') throw err;
      await fs.promises.copyFile(source, target);
    }
  }
}

export interface ArchivedUpload {
  secret: string;
  filename: string;
  sha256: string;
  size: number;
}

export async function receiveArchivedUploads(deps: Deps, unpacked: string): Promise<ArchivedUpload[]> {
  const out: ArchivedUpload[] = [];
  const folder = path.join(unpacked, FOLDER);
  for (const secret of await fs.promises.readdir(folder).catch(() => [] as string[])) {
    if (!SECRET.test(secret)) continue;
    for (const filename of await fs.promises.readdir(path.join(folder, secret)).catch(() => [] as string[])) {
      const file = path.join(folder, secret, filename);
      if (sanitizedFilename(filename) !== filename || !(await fs.promises.lstat(file)).isFile()) continue;
      out.push({ secret, filename, ...(await storeUploadedFile(deps.repos.root, file)) });
    }
  }
  return out;
}

export async function recordArchivedUploads(tx: Conn, projectId: number, userId: number, uploads: ArchivedUpload[]): Promise<void> {
  for (const u of uploads) await recordUpload(tx, { projectId, userId, ...u });
}
