// Finding a project's uploaded files: one by its secret and file name (what its URL names), or
// all of them (an export's `uploads/`).
import type { Conn } from '../store/db.js';

export interface UploadRow {
  id: number;
  project_id: number;
  secret: string;
  filename: string;
  sha256: string;
  size: number | string;
  created_at: string;
}

export async function findUpload(db: Conn, projectId: number, secret: string, filename: string): Promise<UploadRow | undefined> {
  return db('uploads').where({ project_id: projectId, secret, filename }).first();
}

export async function uploadsOfProject(db: Conn, projectId: number): Promise<UploadRow[]> {
  return db('uploads').where({ project_id: projectId }).orderBy('id');
}
