// GitLab 10.8's Todo entity, in its key order: id, project (BasicProjectDetails), author
// (UserBasic), action_name, target_type, target (the full Issue or MergeRequest entity, as
// the user sees it), target_url (the target's web page, `#note_<id>` for a to-do raised by a
// comment), body (the comment's text, else the target's title), state, created_at. A page
// loads its projects, authors, targets and notes in one batch per kind.
import type { Urls } from '../http/urls.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { TodoRow } from '../store/activity_rows.js';
import { TODO_ACTIONS } from '../store/todo_actions.js';
import { userBasic } from './user.js';

const ACTION_NAMES = new Map<number, string>(Object.entries(TODO_ACTIONS).map(([name, id]) => [id, name]));

/** A to-do's parts, rendered beforehand (api/present_todos.ts). */
export interface TodoParts {
  project?: { row: ProjectWithNamespace; json: unknown };
  author?: UserRow;
  /** The target's row (its iid and title) and its rendered entity. */
  target?: { iid: number; title: string; json: unknown };
  noteBody?: string;
}

export function todoEntity(urls: Urls, t: TodoRow, parts: TodoParts) {
  const { project, author, target } = parts;
  const fullPath = project ? `${project.row.namespace.full_path}/${project.row.path}` : '';
  const page = t.target_type === 'Issue' ? 'issues' : 'merge_requests';
  const anchor = t.note_id !== null ? `#note_${t.note_id}` : '';
  const body = t.note_id !== null && parts.noteBody !== undefined ? parts.noteBody : (target?.title ?? null);
  return {
    id: t.id,
    project: project?.json ?? null,
    author: author ? userBasic(author, urls) : null,
    action_name: ACTION_NAMES.get(t.action) ?? null,
    target_type: t.target_type,
    target: target?.json ?? null,
    target_url: target ? urls.web(`${fullPath}/${page}/${target.iid}${anchor}`) : null,
    body,
    state: t.state,
    created_at: t.created_at,
  };
}
