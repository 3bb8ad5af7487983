// GitLab's fuzzy text search (Gitlab::SQL::Pattern): words of 3+ characters must each appear
// (case-insensitively) in a column; a query without such words must equal the column instead.
// Any string is a valid query: quotes and FTS syntax are matched literally, and so is a NUL
// character, which SQLite's LIKE and FTS5 would cut the pattern at (it is compared with
// instr/= there; PostgreSQL text cannot hold one, so it matches nothing).
import type { Knex } from 'knex';

const MIN_CHARS = 3;
const QUOTED_WORD = /(?<=^| )"[^"]+"(?= |$)/g;

/** Collapses runs of whitespace and trims, as Rails' `squish`. */
export function squish(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** The words used for partial matching: `"quoted phrases"` count as one word. */
function fuzzyWords(query: string): string[] {
  const quoted = query.match(QUOTED_WORD) ?? [];
  let rest = query;
  for (const q of quoted) rest = rest.replace(q, '');
  const words = rest.split(/\s+/).filter((w) => w !== '');
  return [...words, ...quoted.map((q) => q.slice(1, -1))].filter((w) => [...w].length >= MIN_CHARS);
}

const NUL = '\u0000';

/** Whether the builder's engine is SQLite (its client name: 'pg' or 'postgres' on PostgreSQL). */
function onSqlite(w: Knex.QueryBuilder): boolean {
  return (w as unknown as { client: { dialect: string } }).client.dialect === 'sqlite3';
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
  const sqlite = onSqlite(w);
  w.orWhere((inner) => {
    for (const word of words.length ? words : [q]) {
      const whole = !words.length;
      if (!word.includes(NUL)) {
        inner.whereRaw(`lower(${column}) LIKE ? ESCAPE '\\'`, [whole ? escapeLike(word) : `%${escapeLike(word)}%`]);
      } else if (!sqlite) {
        inner.whereRaw('1 = 0');
      } else if (whole) {
        inner.whereRaw(`lower(${column}) = ?`, [word.toLowerCase()]);
      } else {
        inner.whereRaw(`instr(lower(${column}), ?) > 0`, [word.toLowerCase()]);
      }
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
  // FTS5 reads its query up to a NUL: such words are left to orFuzzyMatch.
  const words = fuzzyWords(squish(query)).filter((w) => !w.includes(NUL));
  if (!words.length) return null;
  const all = words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' AND ');
  return columns.map((c) => `{${c}} : (${all})`).join(' OR ');
}
