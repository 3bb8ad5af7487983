// Event lists (GitLab 10.8's EventsFinder as lib/api/events.rb drives it): a user's events or a
// project's, only those the viewer may see (src/policy/events.ts), never older than a year
// (even before the retention job has run), filtered by action, target type and dates, sorted
// by created_at (ties by id) — one query per page. `loadEventExtras` then loads what a page
// shows beyond its rows (authors, targets, notes and their noteables, push payloads), one
// query per kind.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import type { NoteRow } from '../store/issuable_rows.js';
import { EVENT_ACTIONS, type EventAction } from '../store/event_actions.js';
import { retentionCutoff } from '../store/event_retention.js';
import { whereVisibleEvents, whereVisibleProjectlessEvents } from '../policy/events.js';
import type { EventRow } from '../store/activity_rows.js';
import type { PushPayloadRow, EventTarget, EventExtras } from '../store/extras.js';
export type { EventExtras } from '../store/extras.js';

export const EVENT_ACTION_NAMES = Object.keys(EVENT_ACTIONS) as EventAction[];

/** The lower-case names of the `target_type` filter and the class names they stand for. */
export const EVENT_TARGET_TYPES: Record<string, string> = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
};

export type EventSource = { kind: 'user'; userId: number } | { kind: 'project'; projectId: number };

export interface EventFilters {
  action?: string;
  targetType?: string;
  /** YYYY-MM-DD: events created before the start of that day (UTC). */
  before?: string;
  /** YYYY-MM-DD: events created after the end of that day (UTC). */
  after?: string;
  sort: 'asc' | 'desc';
}

export function eventsQuery(db: Conn, viewer: UserRow | null, source: EventSource, f: EventFilters): Knex.QueryBuilder {
  const q = db('events as e').leftJoin('projects as p', 'p.id', 'e.project_id').select('e.*');
  if (source.kind === 'user') q.where('e.author_id', source.userId);
  else q.where('e.project_id', source.projectId);
  q.where((w) => {
    w.where((inProject) => whereVisibleEvents(inProject.whereNotNull('e.project_id'), db, viewer, 'e', 'p'));
    w.orWhere((projectless) => whereVisibleProjectlessEvents(projectless, viewer, 'e'));
  });
  q.where('e.created_at', '>=', retentionCutoff());
  if (f.action !== undefined) q.where('e.action', EVENT_ACTIONS[f.action as EventAction]);
  if (f.targetType !== undefined) q.where('e.target_type', EVENT_TARGET_TYPES[f.targetType]);
  if (f.before !== undefined) q.where('e.created_at', '<', `${f.before}T00:00:00.000Z`);
  if (f.after !== undefined) q.where('e.created_at', '>', `${f.after}T23:59:59.999Z`);
  return q.orderBy('e.created_at', f.sort).orderBy('e.id', f.sort);
}

type Titled = { id: number; iid: number | null; title: string };

async function titled(db: Conn, table: string, ids: number[], withIid = true): Promise<Titled[]> {
  if (!ids.length) return [];
  return db(table)
    .whereIn('id', ids)
    .select('id', withIid ? 'iid' : db.raw('NULL as iid'), 'title');
}

export async function loadEventExtras(db: Conn, events: EventRow[]): Promise<EventExtras> {
  const idsOf = (type: string) => [...new Set(events.filter((e) => e.target_type === type && e.target_id !== null).map((e) => e.target_id!))];
  const pushIds = events.filter((e) => e.action === EVENT_ACTIONS.pushed).map((e) => e.id);
  const [payloadRows, issues, mrs, milestones, notes, snippets] = await Promise.all([
    pushIds.length ? db('push_event_payloads').whereIn('event_id', pushIds) : [],
    titled(db, 'issues', idsOf('Issue')),
    titled(db, 'merge_requests', idsOf('MergeRequest')),
    titled(db, 'milestones', idsOf('Milestone')),
    idsOf('Note').length ? db('notes').whereIn('id', idsOf('Note')) : [],
    titled(db, 'snippets', idsOf('Snippet'), false),
  ]);
  const noteRows = notes as NoteRow[];
  const noteIds = (type: string) => [...new Set(noteRows.filter((n) => n.noteable_type === type).map((n) => n.noteable_id))];
  const [noteIssues, noteMrs, noteSnippets] = await Promise.all([
    titled(db, 'issues', noteIds('Issue')),
    titled(db, 'merge_requests', noteIds('MergeRequest')),
    titled(db, 'snippets', noteIds('Snippet'), false),
  ]);
  const userIds = new Set<number>(events.map((e) => e.author_id));
  for (const n of noteRows) if (n.author_id !== null) userIds.add(n.author_id);
  const users: UserRow[] = userIds.size ? await db('users').whereIn('id', [...userIds]) : [];

  const targets = new Map<string, EventTarget>();
  for (const [type, rows] of [
    ['Issue', issues],
    ['MergeRequest', mrs],
    ['Milestone', milestones],
    ['Snippet', snippets],
  ] as const) {
    for (const r of rows) targets.set(`${type}:${r.id}`, { iid: r.iid, title: r.title });
  }
  const noteables = new Map<string, EventTarget>();
  for (const [type, rows] of [
    ['Issue', noteIssues],
    ['MergeRequest', noteMrs],
    ['Snippet', noteSnippets],
  ] as const) {
    for (const r of rows) noteables.set(`${type}:${r.id}`, { iid: r.iid, title: r.title });
  }
  return {
    users: new Map(users.map((u) => [u.id, u])),
    payloads: new Map((payloadRows as PushPayloadRow[]).map((p) => [p.event_id, p])),
    targets,
    notes: new Map(noteRows.map((n) => [n.id, n])),
    noteables,
  };
}
