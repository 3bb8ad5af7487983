// The notes a project's search finds (GitLab 10.8's ProjectSearchResults#notes, NotesFinder
// without a target): users' notes (not system notes) whose text holds the term
// (`fuzzy_search`), on what the user may read there — issues they see (confidential ones by
// the issue rules), merge requests and commits when the caller says they may read them, the
// project snippets their lists show — most recently updated first; and the iids of the issues
// and merge requests they were left on, for the entity (one query per kind for a page).
import type { Knex } from 'knex';
import type { Conn } from '../../store/db.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import type { NoteRow } from '../../store/issuable_rows.js';
import type { ProjectAccess } from '../../policy/projects.js';
import { whereVisibleInProject } from '../../policy/issues.js';
import { projectSnippetsQuery } from '../snippets.js';
import { whereFuzzy } from './projects.js';

/** What the user may read of the project, as the route's abilities answered. */
export interface NoteReach {
  issues: boolean;
  mergeRequests: boolean;
  code: boolean;
}

export function noteSearchQuery(db: Conn, user: UserRow, project: ProjectWithNamespace, access: ProjectAccess, reach: NoteReach, term: string): Knex.QueryBuilder {
  const q = db('notes as n').select('n.*').where('n.project_id', project.id).where('n.system', false);
  q.where((w) => {
    if (reach.issues) {
      const issues = whereVisibleInProject(db('issues as i').select('i.id').where('i.project_id', project.id), db, user, access, 'i');
      w.orWhere((x) => x.where('n.noteable_type', 'Issue').whereIn('n.noteable_id', issues));
    }
    if (reach.mergeRequests) {
      const mergeRequests = db('merge_requests').select('id').where('target_project_id', project.id);
      w.orWhere((x) => x.where('n.noteable_type', 'MergeRequest').whereIn('n.noteable_id', mergeRequests));
    }
    if (reach.code) w.orWhere('n.noteable_type', 'Commit');
    const snippets = projectSnippetsQuery(db, user, project, access).clearSelect().clearOrder().select('snippets.id');
    w.orWhere((x) => x.where('n.noteable_type', 'Snippet').whereIn('n.noteable_id', snippets));
  });
  return whereFuzzy(q, ['n.body'], term).orderBy('n.updated_at', 'desc').orderBy('n.id', 'desc');
}

/** The iid of each note's issue or merge request (by note id). */
export async function noteableIidsOf(db: Conn, notes: NoteRow[]): Promise<Map<number, number>> {
  const idsOf = (type: string) => [...new Set(notes.filter((n) => n.noteable_type === type).map((n) => n.noteable_id))];
  const [issues, mergeRequests] = await Promise.all(
    [
      ['issues', idsOf('Issue')],
      ['merge_requests', idsOf('MergeRequest')],
    ].map(([table, ids]) =>
      (ids as number[]).length
        ? (db(table as string)
            .whereIn('id', ids as number[])
            .select('id', 'iid') as Promise<{ id: number; iid: number }[]>)
        : Promise.resolve([]),
    ),
  );
  const issueIids = new Map(issues.map((r) => [r.id, r.iid]));
  const mergeRequestIids = new Map(mergeRequests.map((r) => [r.id, r.iid]));
  const out = new Map<number, number>();
  for (const n of notes) {
    const iid = n.noteable_type === 'Issue' ? issueIids.get(n.noteable_id) : n.noteable_type === 'MergeRequest' ? mergeRequestIids.get(n.noteable_id) : undefined;
    if (iid !== undefined) out.set(n.id, iid);
  }
  return out;
}
