// Discussions (GitLab 10.8 lib/api/discussions.rb) on every kind of discussions.noteables
// (issues, merge requests, commits): list and get threads, start one (a DiffNote when a
// `position` is given), list, add, get, edit, resolve and delete the notes of a thread, and
// on merge requests resolve or unresolve a whole thread. Every route needs a signed-in user;
// the route table loads the project and parses the parameters, then the noteable is found as
// its kind says (find_noteable's 404s). Messages as 10.8 words them: `404 Discussion Not
// Found`, `404 Notes Not Found`, and its bad_request! form `400 (Bad request) "<text>" not
// given` for a refused note (`Note {:note=>["can't be blank"]}`), a reply to an individual
// note, or resolving a note that cannot be.
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { forbidden, notFound, paramError, recordNotFound } from '../http/errors.js';
import { p, parseValues } from '../http/params.js';
import { paginateArray } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { can } from '../policy/can.js';
import { isResolvable } from '../store/note_kinds.js';
import { blankBody, deleteNote, updateNote } from '../services/notes/notes.js';
import { findNote } from '../finders/notes.js';
import type { NoteRow } from '../store/issuable_rows.js';

import { replyToDiscussion, setDiscussionResolved, setNoteResolved, startDiscussion } from '../services/notes/discussions.js';
import { checkPosition, type DiffRefs, type PositionInput } from '../services/notes/diff_positions.js';
import { findVersionByShas } from '../finders/merge_request_versions.js';
import { discussionsOf, findDiscussion, type Discussion } from '../finders/discussions.js';
import { discussionEntities, discussionUserIds } from '../entities/discussion.js';
import { usersById } from '../finders/users.js';
import { presentNotes } from './present_people.js';
import { DISCUSSION_NOTEABLES, type DiscussionNoteable, type DiscussionNoteableKind } from './discussion_noteables.js';
import { badRequestNotGiven, looseTime } from './notes.js';
import { rubyErrors } from './noteables.js';

const DISCUSSION = { schema: 'Discussion' } as const;
const NOTE = { schema: 'Note' } as const;
const BLANK_NOTE = { note: ["can't be blank"] };

/** `position[...]` as Grape declares it (its errors named with brackets). */
const POSITION_SCHEMA = {
  'position[base_sha]': p.string().required(),
  'position[start_sha]': p.string().required(),
  'position[head_sha]': p.string().required(),
  'position[position_type]': p.string().required().values(['text', 'image']),
  'position[new_path]': p.string(),
  'position[new_line]': p.integer(),
  'position[old_path]': p.string(),
  'position[old_line]': p.integer(),
  'position[width]': p.integer(),
  'position[height]': p.integer(),
  'position[x]': p.integer(),
  'position[y]': p.integer(),
};

function parsePosition(raw: Record<string, string>): PositionInput {
  const prefixed = Object.fromEntries(Object.entries(raw).map(([k, v]) => [`position[${k}]`, v]));
  const v = parseValues(prefixed, POSITION_SCHEMA);
  return {
    base_sha: v['position[base_sha]'],
    start_sha: v['position[start_sha]'],
    head_sha: v['position[head_sha]'],
    position_type: v['position[position_type]'] as 'text' | 'image',
    new_path: v['position[new_path]'],
    new_line: v['position[new_line]'],
    old_path: v['position[old_path]'],
    old_line: v['position[old_line]'],
    width: v['position[width]'],
    height: v['position[height]'],
    x: v['position[x]'],
    y: v['position[y]'],
  };
}

/**
 * The diff a position is checked against: the noteable's current one, or, on a merge request,
 * the older version whose three commits the position names (merge_request_diffs).
 */
async function diffRefsFor(deps: Deps, noteable: DiscussionNoteable, position: PositionInput): Promise<DiffRefs | null> {
  const current = noteable.diffRefs;
  if (noteable.target.type !== 'MergeRequest' || !current) return current;
  if (position.base_sha === current.base && position.start_sha === current.start && position.head_sha === current.head) return current;
  const version = await findVersionByShas(deps.db, noteable.target.id, position);
  return version ? { base: version.base_commit_sha, start: version.start_commit_sha, head: version.head_commit_sha } : current;
}

async function discussionOr404(deps: Deps, noteable: DiscussionNoteable, id: string, what = 'Discussion'): Promise<Discussion> {
  const d = await findDiscussion(deps.db, noteable.target, id);
  if (!d) throw notFound(what);
  return d;
}

/** `noteable.notes.find(note_id)`: any note of the noteable (10.8 does not check the thread). */
async function noteOr404(deps: Deps, noteable: DiscussionNoteable, id: number): Promise<NoteRow> {
  const note = await findNote(deps.db, noteable.target, id);
  if (!note) throw recordNotFound();
  return note;
}

async function renderNote(deps: Deps, noteable: DiscussionNoteable, note: NoteRow) {
  return (await presentNotes(deps.db, deps.urls, [note], noteable.iid))[0];
}

/** The Discussion entities of `discussions`, their authors and resolvers loaded in one query. */
async function presentDiscussions(deps: Deps, discussions: Discussion[], noteableIid: number | null) {
  return discussionEntities(discussions, await usersById(deps.db, discussionUserIds(discussions)), deps.urls, noteableIid);
}

async function renderDiscussion(deps: Deps, noteable: DiscussionNoteable, id: string) {
  const d = await findDiscussion(deps.db, noteable.target, id);
  return (await presentDiscussions(deps, d ? [d] : [], noteable.iid))[0];
}

/** create_note, and `created_at` only for admins and the owner (NotesHelpers#create_note). */
function createdAtFor(noteable: DiscussionNoteable, raw: string | undefined, canOnProject: (a: 'set_note_created_at') => boolean): string | undefined {
  if (!noteable.canCreateNote) throw forbidden();
  return canOnProject('set_note_created_at') ? looseTime(raw) : undefined;
}

function routesOf(kind: DiscussionNoteableKind): Route[] {
  const base = `/projects/:id/${kind.segment}/:noteable_id/discussions`;
  const one = `${base}/:discussion_id`;
  const noteId = { noteable_id: kind.id, discussion_id: p.string().required(), note_id: p.integer().required() };
  const find = (deps: Deps, loaded: LoadedProject, id: number | string) => kind.find(deps, loaded, id);
  const routes: Route[] = [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      load: 'project',
      params: { noteable_id: kind.id },
      summary: `List the discussions of ${kind.what}`,
      response: { ...DISCUSSION, list: true },
      handler: async ({ ctx, deps, loaded, params }) => {
        const noteable = await find(deps, loaded, params.noteable_id);
        const page = paginateArray(ctx, await discussionsOf(deps.db, noteable.target));
        return presentDiscussions(deps, page, noteable.iid);
      },
    }),

    route({
      method: 'GET',
      path: one,
      auth: 'user',
      load: 'project',
      params: { noteable_id: kind.id, discussion_id: p.string().required() },
      summary: `Get a discussion of ${kind.what}`,
      response: DISCUSSION,
      handler: async ({ deps, loaded, params }) => {
        const noteable = await find(deps, loaded, params.noteable_id);
        const d = await discussionOr404(deps, noteable, params.discussion_id);
        return (await presentDiscussions(deps, [d], noteable.iid))[0];
      },
    }),

    route({
      method: 'POST',
      path: base,
      auth: 'user',
      load: 'project',
      params: { noteable_id: kind.id, body: p.string().required(), created_at: p.string(), position: p.hash() },
      summary: `Start a discussion on ${kind.what} (on a diff line with position)`,
      response: DISCUSSION,
      handler: async ({ deps, user, loaded, params: v, can: canOnProject }) => {
        const position = v.position ? parsePosition(v.position) : undefined;
        const noteable = await find(deps, loaded, v.noteable_id);
        const createdAt = createdAtFor(noteable, v.created_at, canOnProject);
        const errors: Record<string, string[]> = blankBody(v.body) ? { ...BLANK_NOTE } : {};
        let placed: { position: string; lineCode: string | null } | undefined;
        if (position) {
          const checked = await checkPosition(noteable.gitdir, noteable.target.type, await diffRefsFor(deps, noteable, position), position);
          if (checked.ok) placed = checked;
          else Object.assign(errors, checked.errors);
        }
        if (Object.keys(errors).length) throw badRequestNotGiven(`Note ${rubyErrors(errors)}`);
        const note = await startDiscussion(deps.db, noteable.target, user, { body: v.body, createdAt, position: placed?.position, lineCode: placed?.lineCode ?? undefined });
        return renderDiscussion(deps, noteable, note.discussion_id);
      },
    }),

    route({
      method: 'GET',
      path: `${one}/notes`,
      auth: 'user',
      load: 'project',
      params: { noteable_id: kind.id, discussion_id: p.string().required() },
      summary: `List the notes of a discussion of ${kind.what}`,
      response: { ...NOTE, list: true },
      handler: async ({ deps, loaded, params }) => {
        const noteable = await find(deps, loaded, params.noteable_id);
        const d = await discussionOr404(deps, noteable, params.discussion_id, 'Notes');
        return presentNotes(deps.db, deps.urls, d.notes, noteable.iid);
      },
    }),

    route({
      method: 'POST',
      path: `${one}/notes`,
      auth: 'user',
      load: 'project',
      params: { noteable_id: kind.id, discussion_id: p.string().required(), body: p.string().required(), created_at: p.string() },
      summary: `Reply to a discussion of ${kind.what}`,
      response: NOTE,
      handler: async ({ deps, user, loaded, params: v, can: canOnProject }) => {
        const noteable = await find(deps, loaded, v.noteable_id);
        const d = await discussionOr404(deps, noteable, v.discussion_id);
        if (d.individualNote) throw badRequestNotGiven('Discussion is an individual note.');
        const createdAt = createdAtFor(noteable, v.created_at, canOnProject);
        if (blankBody(v.body)) throw badRequestNotGiven(`Note ${rubyErrors(BLANK_NOTE)}`);
        return renderNote(deps, noteable, await replyToDiscussion(deps.db, noteable.target, user, d, { body: v.body, createdAt }));
      },
    }),

    route({
      method: 'GET',
      path: `${one}/notes/:note_id`,
      auth: 'user',
      load: 'project',
      params: noteId,
      summary: `Get a note of a discussion of ${kind.what}`,
      response: NOTE,
      handler: async ({ deps, loaded, params }) => {
        const noteable = await find(deps, loaded, params.noteable_id);
        return renderNote(deps, noteable, await noteOr404(deps, noteable, params.note_id));
      },
    }),

    route({
      method: 'PUT',
      path: `${one}/notes/:note_id`,
      auth: 'user',
      load: 'project',
      params: { ...noteId, body: p.string(), resolved: p.boolean() },
      summary: `Edit or resolve a note of a discussion of ${kind.what} (body or resolved)`,
      response: NOTE,
      handler: async ({ deps, user, loaded, params: v }) => {
        exactlyOne(v.body, v.resolved);
        const noteable = await find(deps, loaded, v.noteable_id);
        const note = await noteOr404(deps, noteable, v.note_id);
        if (v.resolved === undefined || v.resolved === null) return editNote(deps, user, noteable, note, v.body!);
        if (!can(user, noteable.noteSubject(note), 'resolve_note')) throw forbidden();
        if (!isResolvable(note)) throw badRequestNotGiven('Note is not resolvable');
        return renderNote(deps, noteable, await setNoteResolved(deps.db, noteable.target, note, user, v.resolved));
      },
    }),

    route({
      method: 'DELETE',
      path: `${one}/notes/:note_id`,
      auth: 'user',
      load: 'project',
      params: noteId,
      summary: `Delete a note of a discussion of ${kind.what}`,
      handler: async ({ ctx, deps, user, loaded, params }) => {
        const noteable = await find(deps, loaded, params.noteable_id);
        const note = await noteOr404(deps, noteable, params.note_id);
        if (!can(user, noteable.noteSubject(note), 'admin_note')) throw forbidden();
        checkUnmodifiedSince(ctx, note.updated_at);
        await deleteNote(deps.db, noteable.target, note);
      },
    }),
  ];
  if (kind.resolvable) {
    routes.push(
      route({
        method: 'PUT',
        path: one,
        auth: 'user',
        load: 'project',
        params: { noteable_id: kind.id, discussion_id: p.string().required(), resolved: p.boolean().required() },
        summary: `Resolve or unresolve a discussion of ${kind.what}`,
        response: DISCUSSION,
        handler: async ({ deps, user, loaded, params: v }) => {
          const noteable = await find(deps, loaded, v.noteable_id);
          const d = await discussionOr404(deps, noteable, v.discussion_id);
          // can_resolve? also asks that the discussion be resolvable.
          if (!noteable.canResolveDiscussion || !d.notes.some(isResolvable)) throw forbidden();
          await setDiscussionResolved(deps.db, noteable.target, d, user, v.resolved);
          return renderDiscussion(deps, noteable, d.id);
        },
      }),
    );
  }
  return routes;
}

/** Grape's exactly_one_of :body, :resolved. */
function exactlyOne(body: unknown, resolved: unknown): void {
  const given = [body, resolved].filter((v) => v !== undefined).length;
  if (given === 0) throw paramError('body, resolved are missing, exactly one parameter must be provided');
  if (given > 1) throw paramError('body, resolved are mutually exclusive');
}

/** NotesHelpers#update_note: admin_note, then the model's presence check. */
async function editNote(deps: Deps, user: UserRow, noteable: DiscussionNoteable, note: NoteRow, body: string | null) {
  if (!can(user, noteable.noteSubject(note), 'admin_note')) throw forbidden();
  if (body === null || blankBody(body)) throw badRequestNotGiven(`Failed to save note ${rubyErrors(BLANK_NOTE)}`);
  return renderNote(deps, noteable, await updateNote(deps.db, noteable.target, note, user, body));
}

export const discussionRoutes: Route[] = DISCUSSION_NOTEABLES.flatMap(routesOf);
