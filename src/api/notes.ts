// Notes (comments) on issues, merge requests and project snippets (GitLab 10.8 lib/api/notes.rb
// and its NotesHelpers): list, single, create, edit, delete under
// `/projects/:id/{issues|merge_requests|snippets}/:noteable_id/notes`, where :noteable_id is
// the iid (a snippet's id). A snippet the user may not read is `404 snippets Not Found`.
// Every route needs a signed-in user (401, even on public projects). The route table loads
// the project and parses the parameters (the iids included: 400 "noteable_id is invalid")
// before the noteable is looked up, as Grape validates before the endpoint runs. A missing
// noteable, or an issue the user may not read, is `404 Not found` (GitLab's finders hide it);
// a merge request the finder shows but the user may not read is `404 merge_requests Not Found`.
import type { Deps } from '../deps.js';
import { route, type Route } from './core/route.js';
import { ApiError, forbidden, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { railsTime } from '../http/date_casts.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { NOTED_KINDS, noteSubject, readableNoteable, rubyErrors, type NotedKind, type NotedObject } from './noteables.js';
import { can } from '../policy/can.js';
import { blankBody, createNote, deleteNote, updateNote, type NoteTarget } from '../services/notes/notes.js';
import { findNote, NOTE_ORDERS, notesQuery } from '../finders/notes.js';
import type { NoteRow } from '../store/issuable_rows.js';
import type { AnyNoteableType } from '../store/note_kinds.js';
import { presentNotes } from './present_people.js';

const NOTE = { schema: 'Note' } as const;
const noteableId = { noteable_id: p.integer().required() };
const noteId = { ...noteableId, note_id: p.integer().required() };

/** GitLab's bad_request!(attribute): `400 (Bad request) "<attribute>" not given`. */
export function badRequestNotGiven(attribute: string): ApiError {
  return new ApiError(400, { message: `400 (Bad request) "${attribute}" not given` });
}

function targetOf(noteable: NotedObject): NoteTarget<AnyNoteableType> {
  return { type: noteable.type, id: noteable.id, projectId: noteable.projectId };
}

async function noteOr404(deps: Deps, noteable: NotedObject, id: number): Promise<NoteRow> {
  const note = await findNote(deps.db, targetOf(noteable), id);
  if (!note) throw recordNotFound();
  return note;
}

async function render(deps: Deps, note: NoteRow, noteable: NotedObject) {
  return (await presentNotes(deps.db, deps.urls, [note], noteable.iid))[0];
}

/** A datetime as Rails would cast it for created_at; undefined when it is not one. */
export function looseTime(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  return railsTime(raw) ?? undefined;
}

const WHAT: Record<NotedKind, string> = { issues: 'an issue', merge_requests: 'a merge request', snippets: 'a project snippet' };

function routesOf(kind: NotedKind): Route[] {
  const base = `/projects/:id/${kind}/:noteable_id/notes`;
  const what = WHAT[kind];
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      load: 'project',
      params: {
        ...noteableId,
        order_by: p
          .string()
          .values(NOTE_ORDERS as unknown as string[])
          .default('created_at'),
        sort: p.string().values(['asc', 'desc']).default('desc'),
      },
      summary: `List the notes of ${what}`,
      response: { ...NOTE, list: true },
      handler: async ({ ctx, deps, loaded, params: v }) => {
        const noteable = await readableNoteable(deps, loaded, kind, v.noteable_id);
        const query = notesQuery(deps.db, targetOf(noteable), v.order_by as (typeof NOTE_ORDERS)[number], v.sort as 'asc' | 'desc');
        return presentNotes(deps.db, deps.urls, await paginate<NoteRow>(ctx, deps.db, query), noteable.iid);
      },
    }),

    route({
      method: 'GET',
      path: `${base}/:note_id`,
      auth: 'user',
      load: 'project',
      params: noteId,
      summary: `Get a note of ${what}`,
      response: NOTE,
      handler: async ({ deps, loaded, params }) => {
        const noteable = await readableNoteable(deps, loaded, kind, params.noteable_id);
        return render(deps, await noteOr404(deps, noteable, params.note_id), noteable);
      },
    }),

    route({
      method: 'POST',
      path: base,
      auth: 'user',
      load: 'project',
      params: { ...noteableId, body: p.string().required(), created_at: p.string() },
      summary: `Comment on ${what}`,
      response: NOTE,
      handler: async ({ deps, user, loaded, params: v, can: canOnProject }) => {
        const noteable = await readableNoteable(deps, loaded, kind, v.noteable_id);
        if (!can(user, noteable.subject, 'create_note')) throw forbidden();
        if (blankBody(v.body)) throw badRequestNotGiven(`Note ${rubyErrors({ note: ["can't be blank"] })}`);
        const createdAt = canOnProject('set_note_created_at') ? looseTime(v.created_at) : undefined;
        return render(deps, await createNote(deps.db, targetOf(noteable), user, { body: v.body, createdAt }), noteable);
      },
    }),

    route({
      method: 'PUT',
      path: `${base}/:note_id`,
      auth: 'user',
      load: 'project',
      params: { ...noteId, body: p.string().required() },
      summary: `Edit a note of ${what}`,
      response: NOTE,
      handler: async ({ deps, user, loaded, params: v }) => {
        const noteable = await readableNoteable(deps, loaded, kind, v.noteable_id);
        const note = await noteOr404(deps, noteable, v.note_id);
        if (!can(user, noteSubject(noteable, note), 'admin_note')) throw forbidden();
        if (blankBody(v.body)) throw badRequestNotGiven(`Failed to save note ${rubyErrors({ note: ["can't be blank"] })}`);
        return render(deps, await updateNote(deps.db, targetOf(noteable), note, user, v.body), noteable);
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:note_id`,
      auth: 'user',
      load: 'project',
      params: noteId,
      summary: `Delete a note of ${what}`,
      handler: async ({ ctx, deps, user, loaded, params }) => {
        const noteable = await readableNoteable(deps, loaded, kind, params.noteable_id);
        const note = await noteOr404(deps, noteable, params.note_id);
        if (!can(user, noteSubject(noteable, note), 'admin_note')) throw forbidden();
        checkUnmodifiedSince(ctx, note.updated_at);
        await deleteNote(deps.db, targetOf(noteable), note);
      },
    }),
  ];
}

export const noteRoutes: Route[] = NOTED_KINDS.flatMap(routesOf);
