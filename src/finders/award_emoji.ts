// Award emoji as issue and merge request lists need them: vote counts for a page in one
// query, and the `my_reaction_emoji` filter.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { AwardableType } from '../store/issuable_rows.js';

export interface Votes {
  upvotes: number;
  downvotes: number;
}

/** `thumbsup` and `thumbsdown` counts of each target (absent: no votes). */
export async function voteCounts(db: Conn, type: AwardableType, ids: number[]): Promise<Map<number, Votes>> {
  const out = new Map<number, Votes>();
  if (!ids.length) return out;
  const rows: { awardable_id: number; name: string; n: number }[] = await db('award_emoji')
    .where('awardable_type', type)
    .whereIn('awardable_id', ids)
    .whereIn('name', ['thumbsup', 'thumbsdown'])
    .groupBy('awardable_id', 'name')
    .select('awardable_id', 'name', db.raw('count(*) as n'));
  for (const r of rows) {
    const votes = out.get(r.awardable_id) ?? { upvotes: 0, downvotes: 0 };
    if (r.name === 'thumbsup') votes.upvotes = Number(r.n);
    else votes.downvotes = Number(r.n);
    out.set(r.awardable_id, votes);
  }
  return out;
}

/**
 * Ids of the targets of one kind the user awarded `name` (`my_reaction_emoji`), as a
 * subquery for `<alias>.id IN (...)`: built once, rather than a check per scanned row.
 */
export function awardedIds(db: Conn, type: AwardableType, userId: number, name: string): Knex.QueryBuilder {
  return db('award_emoji').select('awardable_id').where({ user_id: userId, name, awardable_type: type });
}
