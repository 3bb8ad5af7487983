// Award emoji as issue and merge request lists need them: vote counts for a page in one
// query, and the `my_reaction_emoji` filter.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';

export type AwardableType = 'Issue' | 'MergeRequest' | 'Note';

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

/** Keeps the targets (`<alias>.id`) the user awarded `name` to: `my_reaction_emoji`. */
export function whereAwardedBy(q: Knex.QueryBuilder, db: Conn, type: AwardableType, userId: number, name: string, alias: string): Knex.QueryBuilder {
  return q.whereExists(
    db('award_emoji as my_award')
      .select(db.raw('1'))
      .whereRaw(`my_award.awardable_id = ${alias}.id`)
      .where({ 'my_award.awardable_type': type, 'my_award.user_id': userId, 'my_award.name': name }),
  );
}
