// Subscriptions to issues and merge requests (GitLab 10.8's Subscribable and Issuable's
// `subscribed_without_subscriptions?`). A user's explicit choice wins; with none, they are
// subscribed when they take part: author, assignee, mentioned (@username) in the title,
// description or a note, author of a note, or giver of an award emoji on the target or on
// one of its notes.
import type { Conn } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { extractMentions, extractTitleMentions, type Mentions } from '../../finders/mentions.js';

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

/**
 * The `subscribed` of each target (all of one type) for this user: their explicit choice,
 * else whether they take part. A fixed number of queries whatever the number of targets.
 */
export async function subscriptionsFor(db: Conn, user: UserRow, type: SubscribableType, targets: SubscribableTarget[]): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  if (!targets.length) return out;
  const ids = targets.map((t) => t.id);
  const choices: { subscribable_id: number; subscribed: number | boolean }[] = await db('subscriptions')
    .where({ subscribable_type: type, user_id: user.id })
    .whereIn('subscribable_id', ids)
    .select('subscribable_id', 'subscribed');
  for (const c of choices) out.set(c.subscribable_id, !!c.subscribed);

  const username = user.username.toLowerCase();
  const mentioned = (m: Mentions) => m.names.includes(username);
  const open: number[] = [];
  for (const t of targets) {
    if (out.has(t.id)) continue;
    const takesPart = t.authorId === user.id || t.assigneeIds.includes(user.id) || mentioned(extractTitleMentions(t.title)) || mentioned(extractMentions(t.description));
    if (takesPart) out.set(t.id, true);
    else open.push(t.id);
  }
  if (!open.length) return out;

  // Commenters and people mentioned in comments, then awarders (of the target or its notes).
  const notes: { id: number; noteable_id: number; author_id: number | null; body: string }[] = await db('notes')
    .where('noteable_type', type)
    .whereIn('noteable_id', open)
    .select('id', 'noteable_id', 'author_id', 'body');
  for (const n of notes) if (n.author_id === user.id || mentioned(extractMentions(n.body))) out.set(n.noteable_id, true);
  const noteTarget = new Map(notes.map((n) => [n.id, n.noteable_id]));
  const awards: { awardable_type: string; awardable_id: number }[] = await db('award_emoji')
    .where('user_id', user.id)
    .where((w) => {
      w.where('awardable_type', type).whereIn('awardable_id', open);
      if (notes.length) w.orWhere((n) => n.where('awardable_type', 'Note').whereIn('awardable_id', [...noteTarget.keys()]));
    })
    .select('awardable_type', 'awardable_id');
  for (const a of awards) out.set(a.awardable_type === 'Note' ? noteTarget.get(a.awardable_id)! : a.awardable_id, true);
  for (const id of open) if (!out.has(id)) out.set(id, false);
  return out;
}

/** The `subscribed` of one issue or merge request entity for this user. */
export async function subscribedTo(db: Conn, user: UserRow, target: SubscribableTarget): Promise<boolean> {
  return (await subscriptionsFor(db, user, target.type, [target])).get(target.id) ?? false;
}
