// What kind of note a `notes` row is, as GitLab 10.8's Note subclasses and Discussion classes
// decide it (pure facts of the stored row, shared by services, finders and entities):
// - `type` null: a plain comment (Note), a thread of its own (IndividualNoteDiscussion);
//   'DiscussionNote': a note of a started discussion; 'DiffNote': a discussion note on a
//   line of a merge request's or a commit's diff (its `position`); 'LegacyDiffNote': a commit
//   comment on a line (POST .../commits/:sha/comments with `path` and `line`).
// - resolvable (ResolvableNote#resolvable?): a DiscussionNote or DiffNote of a merge request
//   (Noteable::RESOLVABLE_TYPES) that is not a system note.
// - discussion ids (Discussion.discussion_id): the SHA1 hex of "discussion", the noteable's
//   type and id (a commit's sha) and a random part, so every thread has its own.
import crypto from 'node:crypto';
import type { Flag } from './rows.js';

/** Every kind of object notes hang off (snippets are noted by their own feature). */
export type AnyNoteableType = 'Issue' | 'MergeRequest' | 'Commit' | 'Snippet';
export type NoteType = 'DiscussionNote' | 'DiffNote' | 'LegacyDiffNote';

/** The kinds whose notes can be resolved (Noteable::RESOLVABLE_TYPES). */
const RESOLVABLE_NOTEABLES: ReadonlySet<string> = new Set(['MergeRequest']);
const RESOLVABLE_TYPES: ReadonlySet<string> = new Set(['DiffNote', 'DiscussionNote']);

export interface NoteKindFacts {
  type: NoteType | null;
  noteable_type: string;
  system: Flag | boolean;
}

/** ResolvableNote#resolvable?. */
export function isResolvable(note: NoteKindFacts): boolean {
  return !!note.type && RESOLVABLE_TYPES.has(note.type) && RESOLVABLE_NOTEABLES.has(note.noteable_type) && !note.system;
}

/** A plain note is a discussion of its own (IndividualNoteDiscussion#individual_note?). */
export function isIndividualNote(note: Pick<NoteKindFacts, 'type'>): boolean {
  return note.type === null;
}

/** Discussion.discussion_id: a new thread's id for a note of `noteableType` `idOrSha`. */
export function newDiscussionId(noteableType: AnyNoteableType, idOrSha: number | string): string {
  const underscored = noteableType.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  const parts = ['discussion', underscored, String(idOrSha), crypto.randomBytes(16).toString('hex')];
  return crypto.createHash('sha1').update(parts.join('-')).digest('hex');
}
