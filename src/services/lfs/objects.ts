// Storing an uploaded Git LFS object (GitLab 10.8's Projects::LfsStorageController#upload_finalize):
// the body is checked against its oid and size while it streams into the store
// (git/lfs_store.ts), then the object is recorded (one `lfs_objects` row per oid) and linked
// to the project, whose `lfs_objects_size` is recounted, in one transaction. An object already
// stored (pushed before, or to a fork's parent) is linked, not stored twice.
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { LfsStore } from '../../git/lfs_store.js';
import { now } from '../../store/time.js';
import { recountLfsObjectsSize } from './statistics.js';

export function lfsStore(deps: Pick<Deps, 'repos'>): LfsStore {
  return new LfsStore(deps.repos.root);
}

/** Stores and links the object; throws LfsUploadRefused when the body is not what was declared. */
export async function storeLfsObject(deps: Deps, project: ProjectWithNamespace, oid: string, size: number, body: Readable): Promise<void> {
  const received = await lfsStore(deps).receive(oid, size, body);
  try {
    await received.place();
    await deps.db.transaction(async (tx) => {
      const stamp = now();
      await tx('lfs_objects').insert({ oid, size, created_at: stamp, updated_at: stamp }).onConflict('oid').merge({ updated_at: stamp });
      const object: { id: number } = await tx('lfs_objects').where({ oid }).first('id');
      await tx('lfs_objects_projects').insert({ lfs_object_id: object.id, project_id: project.id, created_at: stamp }).onConflict(['project_id', 'lfs_object_id']).ignore();
      await recountLfsObjectsSize(tx, project.id);
    });
    await received.place(); // the unreferenced-objects sweep may have removed the file meanwhile
  } finally {
    await received.discard();
  }
}

/** Records a stored object (once per oid) and links it to the project, in the caller's transaction. */
export async function recordLfsObject(tx: Conn, projectId: number, oid: string, size: number): Promise<void> {
  const stamp = now();
  await tx('lfs_objects').insert({ oid, size, created_at: stamp, updated_at: stamp }).onConflict('oid').merge({ updated_at: stamp });
  const object: { id: number } = await tx('lfs_objects').where({ oid }).first('id');
  await tx('lfs_objects_projects').insert({ lfs_object_id: object.id, project_id: projectId, created_at: stamp }).onConflict(['project_id', 'lfs_object_id']).ignore();
  await recountLfsObjectsSize(tx, projectId);
}
