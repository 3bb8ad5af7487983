// Subscriptions to issues and merge requests (GitLab 10.8's Subscribable and Issuable's
// `subscribed_without_subscriptions?`). A user's explicit choice wins; with none, they are
// subscribed when they take part: author, assignee, mentioned (@username) in the title,
// description or a note, author of a note, or giver of an award emoji on the target or on
// one of its notes.
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { now } from '../store/time.js';

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

/** The explicit choice wins; otherwise `participant`. */
export async function isSubscribed(db: Conn, userId: number, type: SubscribableType, id: number, participant: boolean): Promise<boolean> {
  const row = await db('subscriptions').where({ subscribable_type: type, subscribable_id: id, user_id: userId }).first('subscribed');
  return row ? !!row.subscribed : participant;
}

/** Records the user's explicit choice. */
export async function setSubscription(db: Conn, userId: number, projectId: number, type: SubscribableType, id: number, subscribed: boolean): Promise<void> {
  const stamp = now();
  await db('subscriptions')
    .insert({ subscribable_type: type, subscribable_id: id, user_id: userId, project_id: projectId, subscribed, created_at: stamp, updated_at: stamp })
    .onConflict(['subscribable_type', 'subscribable_id', 'user_id'])
    .merge({ subscribed, updated_at: stamp });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` mentions @username (GitLab's user reference: not inside a word, whole name). */
export function mentions(text: string | null, username: string): boolean {
  if (!text) return false;
  return new RegExp(`(?<![\\w])@${escapeRegExp(username)}(?![\\w-]|\\.[\\w-])`, 'i').test(text);
}

/** GitLab's participants check for one user. */
export async function isParticipant(db: Conn, user: UserRow, target: SubscribableTarget): Promise<boolean> {
  if (target.authorId === user.id || target.assigneeIds.includes(user.id)) return true;
  if (mentions(target.title, user.username) || mentions(target.description, user.username)) return true;
  const notes: { id: number; author_id: number | null; body: string }[] = await db('notes')
    .where({ noteable_type: target.type, noteable_id: target.id })
    .select('id', 'author_id', 'body');
  if (notes.some((n) => n.author_id === user.id || mentions(n.body, user.username))) return true;
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
