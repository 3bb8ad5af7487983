// Subscriptions to issues and merge requests (GitLab 10.8's Subscribable and Issuable's
// `subscribed_without_subscriptions?`). A user's explicit choice wins; with none, they are
// subscribed when they take part: author, assignee, mentioned (@username) in the title,
// description or a note, author of a note, or giver of an award emoji on the target or on
// one of its notes.
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { now } from '../store/time.js';
import { extractMentions, extractTitleMentions, type Mentions } from './mentions.js';

export type SubscribableType = 'Issue' | 'MergeRequest';

/** What the participation check needs to know of the target. */
export interface SubscribableTarget {
  type: SubscribableType;
  id: number;
  authorId: number | null;
  assigneeIds: number[];
  title: string;
  description: string | null;
}

/** Records the user's explicit choice. */
export async function setSubscription(db: Conn, userId: number, projectId: number, type: SubscribableType, id: number, subscribed: boolean): Promise<void> {
  const stamp = now();
  await db('subscriptions')
    .insert({ subscribable_type: type, subscribable_id: id, user_id: userId, project_id: projectId, subscribed, created_at: stamp, updated_at: stamp })
    .onConflict(['subscribable_type', 'subscribable_id', 'user_id'])
    .merge({ subscribed, updated_at: stamp });
}

/** GitLab's participants check for one user. */
export async function isParticipant(db: Conn, user: UserRow, target: SubscribableTarget): Promise<boolean> {
  if (target.authorId === user.id || target.assigneeIds.includes(user.id)) return true;
  const username = user.username.toLowerCase();
  const mentioned = (m: Mentions) => m.names.includes(username);
  if (mentioned(extractTitleMentions(target.title)) || mentioned(extractMentions(target.description))) return true;
  const notes: { id: number; author_id: number | null; body: string }[] = await db('notes')
    .where({ noteable_type: target.type, noteable_id: target.id })
    .select('id', 'author_id', 'body');
  if (notes.some((n) => n.author_id === user.id || mentioned(extractMentions(n.body)))) return true;
  const award = await db('award_emoji')
    .where('user_id', user.id)
    .where((w) => {
      w.where({ awardable_type: target.type, awardable_id: target.id });
      if (notes.length) {
        w.orWhere((n) => n.where('awardable_type', 'Note').whereIn('awardable_id', db('notes').where({ noteable_type: target.type, noteable_id: target.id }).select('id')));
      }
    })
    .first('id');
  return !!award;
}

/** The `subscribed` of the issue and merge request entities for this user. */
export async function subscribedTo(db: Conn, user: UserRow, target: SubscribableTarget): Promise<boolean> {
  const row = await db('subscriptions').where({ subscribable_type: target.type, subscribable_id: target.id, user_id: user.id }).first('subscribed');
  if (row) return !!row.subscribed;
  return isParticipant(db, user, target);
}
