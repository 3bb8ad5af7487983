// Explicit subscriptions to issues and merge requests (GitLab 10.8's Subscribable). A user
// with no explicit choice is subscribed when they take part (author, assignee, commenter):
// the caller says whether they do.
import type { Conn } from '../store/db.js';
import { now } from '../store/time.js';

export type SubscribableType = 'Issue' | 'MergeRequest';

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
