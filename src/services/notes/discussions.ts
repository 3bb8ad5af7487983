// Starting, answering and resolving discussions (GitLab 10.8's Notes::CreateService with a
// discussion type or `in_reply_to_discussion_id`, Notes::ResolveService, Discussions::
// ResolveService and MergeRequests::ResolvedDiscussionNotificationService):
// - a new discussion's first note is a DiscussionNote, or a DiffNote when it has a position;
// - a reply takes the thread's type, id, position and line (Discussion#reply_attributes);
// - resolving one note stamps it (its updated_at moves, and the noteable is touched, as a
//   saved note is); resolving a discussion stamps every unresolved resolvable note of it at
//   once, leaving updated_at (GitLab's update_all); unresolving clears them;
// - when the last discussion of a merge request gets resolved, the system note "resolved all
//   discussions" is written;
// - a follow-up issue resolves the discussions it takes over, each with the system note
//   "created #<iid> to continue this discussion" in its thread.
// The caller has checked the permissions (create_note, resolve_note).
import type { Conn, Tx } from '../../store/db.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { isResolvable, type AnyNoteableType } from '../../store/note_kinds.js';
import { createNote, createSystemNote, type NoteKind, type NoteTarget } from './notes.js';
import type { NoteRow } from '../../store/issuable_rows.js';
import { discussionResolved, discussionsOf, discussionResolvable, type Discussion } from '../../finders/discussions.js';

const ALL_RESOLVED = 'resolved all discussions';

/** The first note of a new discussion: a DiffNote when `position` (JSON) is given. */
export async function startDiscussion(
  db: Conn,
  target: NoteTarget<AnyNoteableType>,
  author: UserRow,
  input: { body: string; createdAt?: string; position?: string; lineCode?: string },
): Promise<NoteRow> {
  const kind: NoteKind = input.position ? { type: 'DiffNote', position: input.position, lineCode: input.lineCode ?? null } : { type: 'DiscussionNote' };
  return createNote(db, target, author, { body: input.body, createdAt: input.createdAt, ...kind });
}

/** What a reply (or a system note) in the discussion takes from it. */
function replyKind(d: Discussion): NoteKind {
  const first = d.notes[0];
  return { type: first.type, discussionId: d.id, position: first.position, lineCode: first.line_code };
}

/** A reply to a discussion (not an individual note: the caller refused that). */
export async function replyToDiscussion(
  db: Conn,
  target: NoteTarget<AnyNoteableType>,
  author: UserRow,
  d: Discussion,
  input: { body: string; createdAt?: string },
): Promise<NoteRow> {
  return createNote(db, target, author, { body: input.body, createdAt: input.createdAt, ...replyKind(d) });
}

/** Writes "resolved all discussions" when the merge request has none left to resolve. */
async function notifyIfAllResolved(tx: Tx, target: NoteTarget<AnyNoteableType>, user: UserRow): Promise<void> {
  if (target.type !== 'MergeRequest') return;
  const discussions = (await discussionsOf(tx, target)).filter(discussionResolvable);
  if (discussions.length && discussions.every(discussionResolved)) await createSystemNote(tx, target, user, ALL_RESOLVED);
}

/** The noteable's throttled touch, as a saved note does (see services/notes/notes.ts). */
async function touch(tx: Tx, target: NoteTarget<AnyNoteableType>): Promise<void> {
  if (target.type !== 'MergeRequest' && target.type !== 'Issue') return;
  const stamp = now();
  const threshold = new Date(Date.parse(stamp) - 60_000).toISOString();
  await tx(target.type === 'Issue' ? 'issues' : 'merge_requests')
    .where('id', target.id)
    .where('updated_at', '<', threshold)
    .update({ updated_at: stamp });
}

/** ResolvableNote#resolve! / #unresolve! on one note; a no-op when it is so already. */
export async function setNoteResolved(db: Conn, target: NoteTarget<AnyNoteableType>, note: NoteRow, user: UserRow, resolved: boolean): Promise<NoteRow> {
  return db.transaction(async (tx) => {
    if (isResolvable(note) && (note.resolved_at !== null) !== resolved) {
      const stamp = now();
      const values = resolved ? { resolved_at: stamp, resolved_by_id: user.id } : { resolved_at: null, resolved_by_id: null };
      await tx('notes')
        .where({ id: note.id })
        .update({ ...values, updated_at: stamp });
      await touch(tx, target);
      if (resolved) await notifyIfAllResolved(tx, target, user);
    }
    return (await tx('notes').where({ id: note.id }).first()) as NoteRow;
  });
}

/** ResolvableDiscussion#resolve! / #unresolve!: every resolvable note of it at once. */
export async function setDiscussionResolved(db: Conn, target: NoteTarget<AnyNoteableType>, d: Discussion, user: UserRow, resolved: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await resolveIn(tx, d, user, resolved);
    if (resolved) await notifyIfAllResolved(tx, target, user);
  });
}

async function resolveIn(tx: Tx, d: Discussion, user: UserRow, resolved: boolean): Promise<void> {
  const ids = d.notes.filter(isResolvable).map((n) => n.id);
  if (!ids.length) return;
  const q = tx('notes').whereIn('id', ids);
  if (resolved) await q.whereNull('resolved_at').update({ resolved_at: now(), resolved_by_id: user.id });
  else await q.whereNotNull('resolved_at').update({ resolved_at: null, resolved_by_id: null });
}

/**
 * Discussions::ResolveService with a follow-up issue, inside the issue's transaction: each
 * discussion the user may resolve is resolved, and says where it continues.
 */
export async function resolveWithFollowUp(tx: Tx, target: NoteTarget<AnyNoteableType>, discussions: Discussion[], user: UserRow, issueReference: string): Promise<void> {
  for (const d of discussions) {
    await resolveIn(tx, d, user, true);
    await notifyIfAllResolved(tx, target, user);
    await createSystemNote(tx, target, user, `created ${issueReference} to continue this discussion`, replyKind(d));
  }
}
