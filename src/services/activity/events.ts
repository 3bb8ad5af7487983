// Recording activity events (GitLab 10.8's EventCreateService). Every service writes its
// event inside the transaction of its change, so an event exists exactly when the change
// does. Reading them is src/finders/events.ts; the yearly pruning runs from
// src/jobs/event_retention.ts.
import type { Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';
import { EVENT_ACTIONS, type EventAction, type EventTargetType } from '../../store/event_actions.js';
import { retentionCutoff } from '../../store/event_retention.js';

export interface EventInput {
  projectId: number | null;
  authorId: number;
  action: EventAction;
  target?: { type: EventTargetType; id: number };
  /** Kept only for a target that is gone when the event is read (a destroyed project). */
  targetTitle?: string;
  /** Defaults to now; tests and imports may give another time. */
  createdAt?: string;
}

/** Writes one event; returns its id (push events hang their payload off it). */
export async function recordEvent(tx: Conn, input: EventInput): Promise<number> {
  const stamp = input.createdAt ?? now();
  const id = await insertReturningId(tx, 'events', {
    project_id: input.projectId,
    author_id: input.authorId,
    action: EVENT_ACTIONS[input.action],
    target_type: input.target?.type ?? null,
    target_id: input.target?.id ?? null,
    target_title: input.targetTitle ?? null,
    created_at: stamp,
    updated_at: stamp,
  });
  if (input.projectId !== null) {
    // Event#reset_project_activity: the project's last activity moves, at most once an hour.
    const hourBefore = new Date(Date.parse(stamp) - 3600_000).toISOString();
    await tx('projects').where({ id: input.projectId }).where('last_activity_at', '<=', hourBefore).update({ last_activity_at: stamp });
  }
  return id;
}

/** Deletes the events older than a year (their push payloads go by cascade); returns how many. */
export async function pruneOldEvents(db: Conn, at: Date = new Date()): Promise<number> {
  const cutoff = retentionCutoff(at);
  let total = 0;
  // In batches, so that one run never holds the write lock for long.
  for (;;) {
    const ids: { id: number }[] = await db('events').where('created_at', '<', cutoff).orderBy('id').limit(1000).select('id');
    if (!ids.length) return total;
    await db.transaction(async (tx) => {
      await tx('push_event_payloads')
        .whereIn(
          'event_id',
          ids.map((r) => r.id),
        )
        .delete();
      total += await tx('events')
        .whereIn(
          'id',
          ids.map((r) => r.id),
        )
        .delete();
    });
  }
}
