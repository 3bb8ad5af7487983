// The snippets a search finds (GitLab 10.8's SnippetSearchResults): among the snippets the
// user may read (SnippetsFinder: personal ones and those of projects they see with snippets
// on, by visibility, membership or authorship), those whose title or file name holds the term
// (snippet_titles) or whose content does (snippet_blobs), `fuzzy_search` both. 10.8 appended
// its `updated_at DESC` to the finder's newest-first order, which therefore decides.
import type { Knex } from 'knex';
import type { Conn } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { whereReadableSnippets } from '../../policy/snippets.js';
import { whereFuzzy } from './projects.js';

export function snippetSearchQuery(db: Conn, user: UserRow, scope: 'snippet_titles' | 'snippet_blobs', term: string): Knex.QueryBuilder {
  const q = whereReadableSnippets(db('snippets').select('snippets.*'), db, user);
  const columns = scope === 'snippet_titles' ? ['snippets.title', 'snippets.file_name'] : ['snippets.content'];
  return whereFuzzy(q, columns, term).orderBy([
    { column: 'snippets.created_at', order: 'desc' },
    { column: 'snippets.id', order: 'desc' },
    { column: 'snippets.updated_at', order: 'desc' },
  ]);
}
