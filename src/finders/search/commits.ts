// The commits a project's search finds (GitLab 10.8's ProjectSearchResults#commits): up to
// 1000 commits of the ref whose message holds the term (git/commit_grep.ts), newest first,
// and, when the term is a commit id (7 to 40 hex digits, spaces around ignored), that commit
// too, wherever it is in the repository, after them unless they hold it already; and the
// last pipeline of each commit of a page (CommitDetail's status and last_pipeline).
import { commitIdsByMessage } from '../../git/commit_grep.js';
import type { RepoReader } from '../../git/reader.js';
import { SEARCH_BOUNDS } from './blobs.js';
import type { Conn } from '../../store/db.js';
import type { PipelineRow } from '../../store/ci_rows.js';

function isCommitId(s: string): boolean {
  if (s.length < 7 || s.length > 40) return false;
  for (const c of s.toLowerCase()) if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

/** The ids of the commits `term` finds from `commit`, in 10.8's order. */
export async function searchCommitIds(reader: RepoReader, commit: string, term: string): Promise<string[]> {
  const ids = await commitIdsByMessage(reader.gitdir, commit, term, SEARCH_BOUNDS);
  const key = term.trim();
  if (isCommitId(key)) {
    const byId = await reader.resolveCommit(key.toLowerCase());
    if (byId && !ids.includes(byId)) ids.push(byId);
  }
  return ids;
}

/** The newest pipeline of the project at each of these commits (one query for a page). */
export async function lastPipelinesAt(db: Conn, projectId: number, shas: string[]): Promise<Map<string, PipelineRow>> {
  const out = new Map<string, PipelineRow>();
  if (!shas.length) return out;
  const rows: PipelineRow[] = await db('ci_pipelines').where('project_id', projectId).whereIn('sha', shas).orderBy('id', 'desc');
  for (const row of rows) if (!out.has(row.sha)) out.set(row.sha, row);
  return out;
}
