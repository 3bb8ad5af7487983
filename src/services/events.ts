// Recording activity events (GitLab 10.8's EventCreateService). Every service writes its
// event inside the transaction of its change, so an event exists exactly when the change
// does. Reading them is src/finders/events.ts.
import type { Conn } from '../store/db.js';
import { now } from '../store/time.js';

/** GitLab's Event action numbers. */
export const EVENT_ACTIONS = {
  created: 1,
  updated: 2,
  closed: 3,
  reopened: 4,
  pushed: 5,
  commented: 6,
  merged: 7,
  joined: 8,
  left: 9,
  destroyed: 10,
  expired: 11,
} as const;

export type EventAction = keyof typeof EVENT_ACTIONS;

/** The class names GitLab stores as an event's target_type. */
export type EventTargetType = 'Issue' | 'MergeRequest' | 'Milestone' | 'Note' | 'Project' | 'Snippet' | 'User';

export interface EventInput {
  projectId: number | null;
  authorId: number;
  action: EventAction;
  target?: { type: EventTargetType; id: number };
  /** Defaults to now; tests and imports may give another time. */
  createdAt?: string;
}

/** Writes one event; returns its id (push events hang their payload off it). */
export async function recordEvent(tx: Conn, input: EventInput): Promise<number> {
  const stamp = input.createdAt ?? now();
  const [row] = await tx('events')
    .insert({
      project_id: input.projectId,
      author_id: input.authorId,
      action: EVENT_ACTIONS[input.action],
      target_type: input.target?.type ?? null,
      target_id: input.target?.id ?? null,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id');
  return typeof row === 'object' ? row.id : row;
}
