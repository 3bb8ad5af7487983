// Release notes of tags (GitLab 10.8's CreateReleaseService and UpdateReleaseService, and the
// `releases` rows the Tag entity shows): a release belongs to a tag name of a project; it
// can only be written while the tag exists; one per tag (a second is a 409); deleting the
// tag through the API deletes its release. The caller has checked push_code.
import type { Conn } from '../../store/db.js';
import { Conflict, Missing } from '../../store/domain_errors.js';
import { now } from '../../store/time.js';

export interface ReleaseRow {
  id: number;
  project_id: number;
  tag: string;
  description: string;
  created_at: string;
  updated_at: string;
}

const TAG_MISSING = 'Tag does not exist';
const RELEASE_EXISTS = 'Release already exists';
const RELEASE_MISSING = 'Release does not exist';

/** The releases of these tag names of the project, by tag name (one query). */
export async function releasesByTag(db: Conn, projectId: number, tags: string[]): Promise<Map<string, ReleaseRow>> {
  if (!tags.length) return new Map();
  const rows: ReleaseRow[] = await db('releases')
    .where({ project_id: projectId })
    .whereIn('tag', [...new Set(tags)]);
  return new Map(rows.map((r) => [r.tag, r]));
}

/** The release of one tag name, if any. */
export async function findRelease(db: Conn, projectId: number, tag: string): Promise<ReleaseRow | undefined> {
  return db('releases').where({ project_id: projectId, tag }).first();
}

/**
 * CreateReleaseService: `tagExists` says whether the tag is in the repository (404 `Tag does
 * not exist` otherwise); a release of the tag already there is a 409.
 */
export async function createRelease(db: Conn, projectId: number, tag: string, description: string, tagExists: boolean): Promise<ReleaseRow> {
  if (!tagExists) throw new Missing(TAG_MISSING);
  const stamp = now();
  // The unique index decides between two writers; the loser answers as GitLab does.
  const inserted = await db('releases')
    .insert({ project_id: projectId, tag, description, created_at: stamp, updated_at: stamp })
    .onConflict(['project_id', 'tag'])
    .ignore()
    .returning('id');
  if (!inserted.length) throw new Conflict(RELEASE_EXISTS);
  return (await findRelease(db, projectId, tag))!;
}

/** UpdateReleaseService: 404 when the tag or its release does not exist. */
export async function updateRelease(db: Conn, projectId: number, tag: string, description: string, tagExists: boolean): Promise<ReleaseRow> {
  if (!tagExists) throw new Missing(TAG_MISSING);
  const release = await findRelease(db, projectId, tag);
  if (!release) throw new Missing(RELEASE_MISSING);
  if (release.description !== description) {
    await db('releases').where({ id: release.id }).update({ description, updated_at: now() });
  }
  return (await findRelease(db, projectId, tag))!;
}

/** Deletes the release of a tag that was deleted. */
export async function deleteReleaseOf(db: Conn, projectId: number, tag: string): Promise<void> {
  await db('releases').where({ project_id: projectId, tag }).delete();
}
