// Issuable#participants as GitLab 10.8's Participable gathers them, for issues and merge
// requests alike: the assignees, the author, the authors of the notes (newest first: the
// traversal is a stack), then the users mentioned in the title, the description and the
// notes; each once, and only those who can read the project.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { IssueRow, MergeRequestRow, NoteableType } from '../store/issuable_rows.js';
import { canReadProject, projectAccess } from '../policy/projects.js';
import { extractMentions, extractTitleMentions, mergeMentions, resolveMentions } from './mentions.js';
import { findUserById } from './users.js';

interface Participable {
  type: NoteableType;
  id: number;
  title: string;
  description: string | null;
  authorId: number | null;
  assigneeIds: number[];
}

async function participantsOf(db: Conn, project: ProjectWithNamespace, it: Participable): Promise<UserRow[]> {
  const notes: { author_id: number | null; body: string }[] = await db('notes')
    .where({ noteable_type: it.type, noteable_id: it.id })
    .orderBy('id', 'desc')
    .select('author_id', 'body');
  const ids: number[] = [];
  for (const id of [...it.assigneeIds, it.authorId, ...notes.map((n) => n.author_id)]) if (id !== null && !ids.includes(id)) ids.push(id);
  const mentioned = mergeMentions(extractTitleMentions(it.title), extractMentions(it.description), ...notes.map((n) => extractMentions(n.body))).names;
  const author: UserRow | undefined = it.authorId === null ? undefined : await findUserById(db, it.authorId);
  if (author) for (const id of await resolveMentions(db, project, author, mentioned)) if (!ids.includes(id)) ids.push(id);
  const users: UserRow[] = ids.length ? await db('users').whereIn('id', ids) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  const out: UserRow[] = [];
  for (const id of ids) {
    const u = byId.get(id);
    if (u && u.state !== 'blocked' && canReadProject(u, project, await projectAccess(db, u, project))) out.push(u);
  }
  return out;
}

export async function issueParticipants(db: Conn, project: ProjectWithNamespace, issue: IssueRow): Promise<UserRow[]> {
  const assigneeIds: number[] = await db('issue_assignees').where({ issue_id: issue.id }).orderBy('user_id').pluck('user_id');
  return participantsOf(db, project, { type: 'Issue', id: issue.id, title: issue.title, description: issue.description, authorId: issue.author_id, assigneeIds });
}

export async function mergeRequestParticipants(db: Conn, project: ProjectWithNamespace, mr: MergeRequestRow): Promise<UserRow[]> {
  const assigneeIds = mr.assignee_id === null ? [] : [mr.assignee_id];
  return participantsOf(db, project, { type: 'MergeRequest', id: mr.id, title: mr.title, description: mr.description, authorId: mr.author_id, assigneeIds });
}
