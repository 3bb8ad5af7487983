// Setting and deleting custom attributes (GitLab 10.8's CustomAttributesEndpoints, PUT and
// DELETE .../custom_attributes/:key): a key/value pair of a user, project or group, set by
// creating it or replacing its value. The caller has checked the admin and the lengths.
import type { Conn } from '../store/db.js';
import { now } from '../store/time.js';
import type { CustomAttributeSubject } from '../finders/custom_attributes.js';

export async function setCustomAttribute(db: Conn, type: CustomAttributeSubject, id: number, key: string, value: string): Promise<void> {
  const stamp = now();
  await db('custom_attributes')
    .insert({ subject_type: type, subject_id: id, key, value, created_at: stamp, updated_at: stamp })
    .onConflict(['subject_type', 'subject_id', 'key'])
    .merge({ value, updated_at: stamp });
}

/** False when the subject had no attribute of that key. */
export async function deleteCustomAttribute(db: Conn, type: CustomAttributeSubject, id: number, key: string): Promise<boolean> {
  return (await db('custom_attributes').where({ subject_type: type, subject_id: id, key }).delete()) > 0;
}
