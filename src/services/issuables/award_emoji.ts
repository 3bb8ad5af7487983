// Award emoji on issues, merge requests, project snippets and their notes (GitLab 10.8's Awardable and the
// AwardEmoji model). A name is normalised (aliases such as "+1" become "thumbsup"), then
// validated as the model does: present, a known emoji, once per user and target. Awarding
// marks the user's pending todos on the issue or merge request done, in the same transaction
// (snippets have none).
// The caller has checked the permissions.
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import type { AwardableType, AwardRow } from '../../store/issuable_rows.js';
import { EMOJI_NAMES, normalizeEmojiName } from './emoji_names.js';
import { announce } from '../notify.js';
import type { IssuableRef } from '../domain_events.js';

export interface Awardable {
  type: AwardableType;
  id: number;
}

export type AwardResult = { award: AwardRow; errors?: undefined } | { award?: undefined; errors: Record<string, string[]> };

export { normalizeEmojiName };

export function awardsQuery(db: Conn, target: Awardable) {
  return db('award_emoji').where({ awardable_type: target.type, awardable_id: target.id }).orderBy('id', 'asc');
}

export async function findAward(db: Conn, target: Awardable, id: number): Promise<AwardRow | undefined> {
  return db('award_emoji').where({ id, awardable_type: target.type, awardable_id: target.id }).first();
}

/** Awards `name` (normalised) to the target; the model's errors when it is not valid. */
export async function createAward(db: Conn, target: Awardable, todoTarget: IssuableRef | null, user: UserRow, rawName: string): Promise<AwardResult> {
  const name = normalizeEmojiName(rawName);
  try {
    return await insertAward(db, target, todoTarget, user, name);
  } catch (err) {
    // A concurrent twin won the unique index: the model's answer.
    if (isUniqueViolation(err)) return { errors: { name: ['has already been taken'] } };
    throw err;
  }
}

async function insertAward(db: Conn, target: Awardable, todoTarget: IssuableRef | null, user: UserRow, name: string): Promise<AwardResult> {
  return db.transaction(async (tx) => {
    const messages: string[] = [];
    if (name.trim() === '') messages.push("can't be blank");
    if (!EMOJI_NAMES.has(name)) messages.push('is not included in the list');
    else if (await tx('award_emoji').where({ awardable_type: target.type, awardable_id: target.id, user_id: user.id, name }).first('id')) {
      messages.push('has already been taken');
    }
    if (messages.length) return { errors: { name: messages } };
    const stamp = now();
    const id = await insertReturningId(tx, 'award_emoji', { awardable_type: target.type, awardable_id: target.id, user_id: user.id, name, created_at: stamp, updated_at: stamp });
    if (todoTarget) await announce(tx, { name: 'issuableTouched', target: todoTarget, actorId: user.id });
    return { award: (await tx('award_emoji').where({ id }).first()) as AwardRow };
  });
}

export async function deleteAward(db: Conn, award: AwardRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx('award_emoji').where({ id: award.id }).delete();
  });
}

/**
 * For the deletion of a project (inside its transaction, before the project row goes): the
 * award emoji of its issues, notes and snippets, which have no foreign key to cascade on.
 */
export async function deleteProjectAwards(tx: Conn, projectId: number): Promise<void> {
  await tx('award_emoji')
    .where('awardable_type', 'Issue')
    .whereIn('awardable_id', tx('issues').where({ project_id: projectId }).select('id'))
    .delete();
  await tx('award_emoji')
    .where('awardable_type', 'Note')
    .whereIn('awardable_id', tx('notes').where({ project_id: projectId }).select('id'))
    .delete();
  await tx('award_emoji')
    .where('awardable_type', 'Snippet')
    .whereIn('awardable_id', tx('snippets').where({ project_id: projectId }).select('id'))
    .delete();
}
