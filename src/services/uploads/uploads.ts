// Uploading a file to a project (GitLab 10.8's UploadService with FileUploader; the caller holds
// it to the `max_attachment_size` setting): stored by content (store.ts) and recorded under a
// new secret, answered with its alt text, URL and Markdown (names.ts).
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { storeUploadedFile } from './store.js';
import { newUploadSecret, sanitizedFilename, uploadLinks } from './names.js';

export async function createUpload(
  deps: Deps,
  project: ProjectWithNamespace,
  user: UserRow,
  file: { filename: string; path: string },
): Promise<{ alt: string; url: string; markdown: string }> {
  const stored = await storeUploadedFile(deps.repos.root, file.path);
  const secret = newUploadSecret();
  const filename = sanitizedFilename(file.filename);
  await recordUpload(deps.db, { projectId: project.id, userId: user.id, secret, filename, ...stored });
  return uploadLinks(secret, filename);
}

export async function recordUpload(db: Conn, u: { projectId: number; userId: number | null; secret: string; filename: string; sha256: string; size: number }): Promise<void> {
  await db('uploads')
    .insert({ project_id: u.projectId, uploaded_by_user_id: u.userId, secret: u.secret, filename: u.filename, sha256: u.sha256, size: u.size, created_at: now() })
    .onConflict(['project_id', 'secret', 'filename'])
    .ignore();
}
