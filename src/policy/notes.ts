// Who may comment, edit comments, award emoji and track time on issues and merge requests
// (GitLab 10.8's NotePolicy and IssuablePolicy on top of ProjectPolicy). The only place these
// decisions are made; whether the noteable itself is readable comes from policy/issues.ts and
// policy/merge_requests.ts through the facts the caller passes.
// - create_note: guest abilities (members, any signed-in user of a public or internal project,
//   admins) on a readable noteable of a project that is not archived;
// - admin_note (edit, delete): the note's author or masters and up (admins), never on a system
//   note; archived projects allow none (policy/archived.ts);
// - a locked discussion (`discussion_locked`) refuses create_note and admin_note to whoever is
//   not a project member — GitLab's rule prevents, so it holds for non-member admins too;
// - award_emoji: guest abilities on a readable target, not archived; apart from the ability,
//   nobody up/down-votes what they authored (awardableByUser, GitLab's Awardable model rule);
// - note `created_at`: admins and the project owner;
// - resolve_note (resolving a merge request's discussion notes): developers and up (admins),
//   the note's author and the noteable's author; a locked discussion refuses non-members, an
//   archived project everyone (policy/archived.ts). Resolving a whole discussion asks the
//   project's resolve_note or the noteable's authorship (ResolvableDiscussion#can_resolve?);
// - notes on the project as a whole (a commit's): read_note and create_note with guest
//   abilities, as ProjectPolicy gives them.
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { DEVELOPER, GUEST, INTERNAL, MASTER, PUBLIC } from './levels.js';
import { isAdmin } from './users.js';
import { refusedOnArchived } from './archived.js';
import { maxLevel, type ProjectAccess } from './projects.js';

/** What these rules need to know of the noteable (issue or merge request). */
export interface NoteableFacts {
  /** The user may read the noteable (its own policy said so). */
  readable: boolean;
  discussionLocked: boolean;
  /** The noteable's author (who may resolve its discussions); absent where nobody is. */
  authorId?: number | null;
}

export interface NoteFacts {
  author_id: number | null;
  system: boolean | number;
}

function active(user: UserRow | null): user is UserRow {
  return !!user && user.state !== 'blocked';
}

/** GitLab's project team membership (direct, through groups or shares, or ownership). */
function isProjectMember(access: ProjectAccess): boolean {
  return maxLevel(access) >= GUEST;
}

/** Guest abilities: members, admins, and signed-in users of public (and, non-external, internal) projects. */
function guestAccess(user: UserRow, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (isAdmin(user) || isProjectMember(access)) return true;
  if (project.visibility_level >= PUBLIC) return true;
  return project.visibility_level >= INTERNAL && !user.external;
}

function lockedOut(noteable: NoteableFacts, access: ProjectAccess): boolean {
  return noteable.discussionLocked && !isProjectMember(access);
}

export function canCreateNote(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, noteable: NoteableFacts): boolean {
  if (!active(user) || refusedOnArchived(project, 'create_note') || !noteable.readable) return false;
  if (lockedOut(noteable, access)) return false;
  return guestAccess(user, project, access);
}

/** Edit or delete the note (admin_note). */
export function canAdminNote(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, noteable: NoteableFacts, note: NoteFacts): boolean {
  if (!active(user) || refusedOnArchived(project, 'admin_note') || !noteable.readable) return false;
  if (note.system) return false;
  if (lockedOut(noteable, access)) return false;
  return note.author_id === user.id || isAdmin(user) || maxLevel(access) >= MASTER;
}

/** Give a readable target an award (award_emoji): guest abilities. */
export function canAward(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, target: { readable: boolean }): boolean {
  if (!active(user) || refusedOnArchived(project, 'award_emoji') || !target.readable) return false;
  return guestAccess(user, project, access);
}

/**
 * Awardable#awardable_by_user? (a model rule, asked beside the award_emoji ability): nobody
 * up- or down-votes what they authored; other emoji are fine. `name` is normalised.
 */
export function awardableByUser(user: UserRow, authorId: number | null, name: string): boolean {
  return authorId !== user.id || (name !== 'thumbsup' && name !== 'thumbsdown');
}

/** Remove an award: its owner or an admin. */
export function canRemoveAward(user: UserRow | null, award: { user_id: number }): boolean {
  return active(user) && (award.user_id === user.id || isAdmin(user));
}

/** A note's `created_at` may be set by admins and the project owner. */
export function canSetNoteTimestamps(user: UserRow | null, access: ProjectAccess): boolean {
  return isAdmin(user) || access.owner;
}

/** ProjectPolicy's resolve_note: developers and up (admins). */
export function canResolveInProject(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (!active(user) || refusedOnArchived(project, 'resolve_note')) return false;
  return isAdmin(user) || maxLevel(access) >= DEVELOPER;
}

/** NotePolicy's resolve_note on one note: the project's, the note's author, the noteable's author. */
export function canResolveNote(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, noteable: NoteableFacts, note: NoteFacts): boolean {
  if (!active(user) || refusedOnArchived(project, 'resolve_note') || !noteable.readable) return false;
  if (lockedOut(noteable, access)) return false;
  return canResolveInProject(user, project, access) || note.author_id === user.id || (noteable.authorId ?? null) === user.id;
}

/** ResolvableDiscussion#can_resolve?: the noteable's author, or the project's resolve_note. */
export function canResolveDiscussion(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess, noteable: NoteableFacts): boolean {
  if (!active(user) || refusedOnArchived(project, 'resolve_note') || !noteable.readable) return false;
  return (noteable.authorId ?? null) === user.id || canResolveInProject(user, project, access);
}

/** Notes on the project itself (a commit's): read_note, with guest abilities. */
export function canReadProjectNotes(user: UserRow | null, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  if (user && user.state === 'blocked') return false;
  if (isAdmin(user) || isProjectMember(access) || project.visibility_level >= PUBLIC) return true;
  return !!user && project.visibility_level >= INTERNAL && !user.external;
}
