// What a stored row can hold, for lookups by values that come from a client: an id beyond the
// integer columns' range or a name with a NUL character names no row on either engine, but
// PostgreSQL refuses such a value in a query with an error (integer out of range; text cannot
// hold NUL) where SQLite simply finds nothing. A finder asks here first and answers "not
// found" itself, so both engines give GitLab's 404 (Project Not Found, Group Not Found, ...).

/** The largest id (PostgreSQL `integer`, SQLite keeps the same range). */
const MAX_ID = 2147483647;

/** An id given as digits (or a number) that some row could have, or null. */
export function storableId(id: string | number): number | null {
  const n = typeof id === 'number' ? id : /^\d{1,10}$/.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX_ID ? n : null;
}

/** Whether a client-given name could be stored in a text column (no NUL character). */
export function storableText(s: string): boolean {
  return !s.includes('\u0000');
}
