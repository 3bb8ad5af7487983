// Rendering a page of search results in 10.8's entity of each scope (lib/api/search.rb's
// SCOPE_ENTITY): BasicProjectDetails, IssueBasic, MergeRequestBasic, Milestone, Note,
// Snippet, Blob and CommitDetail. The finders load each page's extras in one batch per kind.
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { IssueRow, MergeRequestRow, MilestoneRow, NoteRow } from '../store/issuable_rows.js';
import type { SnippetRow } from '../store/snippet_rows.js';
import { loadIssueExtras } from '../finders/issues.js';
import { withNamespaces } from '../finders/projects.js';
import { loadSnippetContext } from '../finders/snippets.js';
import { lastPipelinesAt } from '../finders/search/commits.js';
import { noteableIidsOf } from '../finders/search/notes.js';
import { usersById } from '../finders/users.js';
import { noteEntity } from '../entities/note.js';
import { issueBasic } from '../entities/issue.js';
import { milestoneEntity } from '../entities/milestone.js';
import { projectSnippetEntity } from '../entities/snippet.js';
import { commitDetail } from '../entities/commit.js';
import { pipelineBasic } from '../entities/pipeline.js';
import { presentMergeRequestList } from './present_merge_requests.js';
import { presentProjects } from './present_projects.js';
import { repositoryOf } from './repo_context.js';

export type SearchRow = Record<string, unknown> & { id: number };

export async function presentSearchRows(deps: Deps, user: UserRow, scope: string, rows: SearchRow[]): Promise<unknown[]> {
  switch (scope) {
    case 'projects':
      return presentProjects(deps, user, await withNamespaces(deps.db, rows as unknown as ProjectWithNamespace[]), { view: 'basic' });
    case 'issues': {
      const issues = rows as unknown as IssueRow[];
      const extras = await loadIssueExtras(deps.db, issues);
      return issues.map((row) => issueBasic(row, extras, deps.urls));
    }
    case 'merge_requests':
      return presentMergeRequestList(deps, rows as unknown as MergeRequestRow[], false);
    case 'milestones':
      return (rows as unknown as MilestoneRow[]).map(milestoneEntity);
    case 'notes': {
      const notes = rows as unknown as NoteRow[];
      const [iids, users] = await Promise.all([
        noteableIidsOf(deps.db, notes),
        usersById(
          deps.db,
          notes.flatMap((n) => [n.author_id, n.resolved_by_id]),
        ),
      ]);
      return notes.map((n) => noteEntity(n, iids.get(n.id) ?? null, users, deps.urls));
    }
    default: {
      const snippets = rows as unknown as SnippetRow[];
      const context = await loadSnippetContext(deps.db, snippets);
      return snippets.map((s) => projectSnippetEntity(s, context, deps.urls));
    }
  }
}

/** CommitDetail of each commit of a page, with its last pipeline (one query for the page). */
export async function presentSearchCommits(deps: Deps, project: ProjectWithNamespace, ids: string[]): Promise<unknown[]> {
  const reader = repositoryOf(deps, project);
  const [commits, pipelines] = await Promise.all([Promise.all(ids.map((id) => reader.commit(id))), lastPipelinesAt(deps.db, project.id, ids)]);
  return commits.map((commit) => {
    const last = pipelines.get(commit.oid);
    return commitDetail(commit, { status: last?.status ?? null, lastPipeline: last ? pipelineBasic(last) : null, projectId: project.id });
  });
}
