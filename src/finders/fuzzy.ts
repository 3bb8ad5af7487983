// GitLab's fuzzy text search (Gitlab::SQL::Pattern): words of 3+ characters must each appear
// (case-insensitively) in a column; a query without such words must equal the column instead.
import type { Knex } from 'knex';

const MIN_CHARS = 3;
const QUOTED_WORD = /(?<=^| )"[^"]+"(?= |$)/g;

/** Collapses runs of whitespace and trims, as Rails' `squish`. */
export function squish(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** The words used for partial matching: `"quoted phrases"` count as one word. */
export function fuzzyWords(query: string): string[] {
  const quoted = query.match(QUOTED_WORD) ?? [];
  let rest = query;
  for (const q of quoted) rest = rest.replace(q, '');
  const words = rest.split(/\s+/).filter((w) => w !== '');
  return [...words, ...quoted.map((q) => q.slice(1, -1))].filter((w) => w.length >= MIN_CHARS);
}

function escapeLike(s: string): string {
  return s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Adds `column` matches `query` to `w` (OR-ed with what is already there):
 * every long word as a substring, or else the whole query as a case-insensitive equality.
 */
export function orFuzzyMatch(w: Knex.QueryBuilder, column: string, query: string): void {
  const q = squish(query);
  if (q === '') return;
  const words = fuzzyWords(q);
  w.orWhere((inner) => {
    if (words.length) {
      for (const word of words) inner.whereRaw(`lower(${column}) LIKE ? ESCAPE '\\'`, [`%${escapeLike(word)}%`]);
    } else {
      inner.whereRaw(`lower(${column}) LIKE ? ESCAPE '\\'`, [escapeLike(q)]);
    }
  });
}

/**
 * An FTS5 query (trigram tokenizer) for the rows where one of `columns` holds every long word
 * of `query`, as `orFuzzyMatch` on those columns asks. For ASCII words it keeps exactly the
 * same rows (both fold ASCII case only); beyond ASCII the tokenizer folds more, so a superset.
 * Null when the query has no word long enough for the index.
 */
export function trigramMatch(query: string, columns: string[]): string | null {
  const words = fuzzyWords(squish(query));
  if (!words.length) return null;
  const all = words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' AND ');
  return columns.map((c) => `{${c}} : (${all})`).join(' OR ');
}
