// Issue#participants as GitLab 10.8's Participable gathers them, in the order the merge
// request participants use (finders/merge_requests.ts): the assignees, the author, the
// authors of the notes (newest first), then the users mentioned in the title, the
// description and the notes; each once, and only those who can read the project.
import type { Conn } from '../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { IssueRow } from '../store/issuable_rows.js';
import { canReadProject, projectAccess } from '../policy/projects.js';
import { extractMentions, extractTitleMentions, mergeMentions, resolveMentions } from './mentions.js';

export async function issueParticipants(db: Conn, project: ProjectWithNamespace, issue: IssueRow): Promise<UserRow[]> {
  const notes: { author_id: number | null; body: string }[] = await db('notes')
    .where({ noteable_type: 'Issue', noteable_id: issue.id })
    .orderBy('id', 'desc')
    .select('author_id', 'body');
  const assignees: number[] = await db('issue_assignees').where({ issue_id: issue.id }).orderBy('user_id').pluck('user_id');
  const ids: number[] = [];
  for (const id of [...assignees, issue.author_id, ...notes.map((n) => n.author_id)]) if (id !== null && !ids.includes(id)) ids.push(id);
  const mentioned = mergeMentions(extractTitleMentions(issue.title), extractMentions(issue.description), ...notes.map((n) => extractMentions(n.body))).names;
  const author: UserRow | undefined = issue.author_id === null ? undefined : await db('users').where({ id: issue.author_id }).first();
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
