// Finding project hooks and system hooks (GitLab 10.8's `user_project.hooks` and SystemHook
// lookups): the hooks of one type (and project), oldest first, and one of them by id.
import type { Conn } from '../store/db.js';
import type { HookType, WebHookRow } from '../store/hook_rows.js';

/** A query of the hooks of one type (and project), oldest first. */
export function hooksQuery(db: Conn, type: HookType, projectId: number | null) {
  const q = db('web_hooks').where({ type }).orderBy('id');
  return projectId === null ? q : q.where({ project_id: projectId });
}

export async function findHook(db: Conn, type: HookType, projectId: number | null, id: number): Promise<WebHookRow | undefined> {
  return hooksQuery(db, type, projectId).where({ id }).first();
}
