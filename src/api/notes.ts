// Notes (comments) on issues and merge requests (GitLab 10.8 lib/api/notes.rb and its
// NotesHelpers): list, single, create, edit, delete under
// `/projects/:id/{issues|merge_requests}/:noteable_id/notes`, where :noteable_id is the iid.
// Every route needs a signed-in user (401, even on public projects). A missing noteable, or
// an issue the user may not read, is `404 Not found` (GitLab's finders hide it); a merge
// request the finder shows but the user may not read is `404 merge_requests Not Found`.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { requireUser } from '../http/auth.js';
import { ApiError, forbidden, notFound, recordNotFound } from '../http/errors.js';
import { p, parseValues, rawParams } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findNoteable, intParam, NOTEABLE_KINDS, rubyErrors, type Noteable, type NoteableKind } from './noteables.js';
import { canAdminNote, canCreateNote, canSetNoteTimestamps } from '../policy/notes.js';
import { blankBody, createNote, deleteNote, findNote, NOTE_ORDERS, notesQuery, updateNote, type NoteRow, type NoteTarget } from '../services/notes.js';
import { presentNotes } from '../entities/note.js';

const LIST_SCHEMA = {
  order_by: p.string().values(NOTE_ORDERS as unknown as string[]).default('created_at'),
  sort: p.string().values(['asc', 'desc']).default('desc'),
};

/** GitLab's bad_request!(attribute): `400 (Bad request) "<attribute>" not given`. */
function badRequestNotGiven(attribute: string): ApiError {
  return new ApiError(400, { message: `400 (Bad request) "${attribute}" not given` });
}

function targetOf(noteable: Noteable): NoteTarget {
  return { type: noteable.type, id: noteable.id, projectId: noteable.projectId };
}

interface ReadableNoteable {
  user: UserRow;
  loaded: LoadedProject;
  noteable: Noteable;
}

/** The signed-in user, the project and the noteable of the route, readable, or GitLab's 404s. */
async function readableNoteable(ctx: Koa.Context, deps: Deps, kind: NoteableKind): Promise<ReadableNoteable> {
  const user = requireUser(ctx);
  const loaded = await loadProject(ctx, deps);
  const noteable = await findNoteable(deps, loaded, user, kind, intParam(ctx, 'noteable_id'));
  if (!noteable) throw recordNotFound();
  if (!noteable.readable) {
    // The issue finder hides what the user may not read; the merge request finder only
    // what is disabled, and find_noteable's own check names the collection.
    if (kind === 'merge_requests' && loaded.project.merge_requests_enabled) throw notFound(kind);
    throw recordNotFound();
  }
  return { user, loaded, noteable };
}

function noteFacts(noteable: Noteable) {
  return { readable: noteable.readable, discussionLocked: noteable.discussionLocked };
}

/** A datetime as Rails would cast it for created_at; undefined when it is not one. */
function looseTime(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function notesRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  async function loadNote(ctx: Koa.Context, noteable: Noteable): Promise<NoteRow> {
    const note = await findNote(db, targetOf(noteable), intParam(ctx, 'note_id'));
    if (!note) throw recordNotFound();
    return note;
  }

  async function render(note: NoteRow, noteable: Noteable) {
    return (await presentNotes(db, deps.urls, [note], noteable.iid))[0];
  }

  for (const kind of NOTEABLE_KINDS) {
    const base = `/projects/:id/${kind}/:noteable_id/notes`;

    router.get(base, async (ctx) => {
      const { noteable } = await readableNoteable(ctx, deps, kind);
      const v = parseValues(rawParams(ctx), LIST_SCHEMA);
      const query = notesQuery(db, targetOf(noteable), v.order_by as (typeof NOTE_ORDERS)[number], v.sort as 'asc' | 'desc');
      const rows = await paginate<NoteRow>(ctx, db, query);
      ctx.body = await presentNotes(db, deps.urls, rows, noteable.iid);
    });

    router.get(`${base}/:note_id`, async (ctx) => {
      const { noteable } = await readableNoteable(ctx, deps, kind);
      ctx.body = await render(await loadNote(ctx, noteable), noteable);
    });

    router.post(base, async (ctx) => {
      const { user, loaded, noteable } = await readableNoteable(ctx, deps, kind);
      if (!canCreateNote(user, loaded.project, loaded.access, noteFacts(noteable))) throw forbidden();
      const raw = rawParams(ctx);
      const v = parseValues(raw, { body: p.string().required(), created_at: p.string() });
      if (blankBody(v.body)) throw badRequestNotGiven(`Note ${rubyErrors({ note: ["can't be blank"] })}`);
      const createdAt = canSetNoteTimestamps(user, loaded.access) ? looseTime(v.created_at) : undefined;
      const note = await createNote(db, targetOf(noteable), user, { body: v.body, createdAt });
      ctx.status = 201;
      ctx.body = await render(note, noteable);
    });

    router.put(`${base}/:note_id`, async (ctx) => {
      const { user, loaded, noteable } = await readableNoteable(ctx, deps, kind);
      const note = await loadNote(ctx, noteable);
      if (!canAdminNote(user, loaded.project, loaded.access, noteFacts(noteable), note)) throw forbidden();
      const v = parseValues(rawParams(ctx), { body: p.string().required() });
      if (blankBody(v.body)) throw badRequestNotGiven(`Failed to save note ${rubyErrors({ note: ["can't be blank"] })}`);
      const updated = await updateNote(db, targetOf(noteable), note, user, v.body);
      ctx.body = await render(updated, noteable);
    });

    router.delete(`${base}/:note_id`, async (ctx) => {
      const { user, loaded, noteable } = await readableNoteable(ctx, deps, kind);
      const note = await loadNote(ctx, noteable);
      if (!canAdminNote(user, loaded.project, loaded.access, noteFacts(noteable), note)) throw forbidden();
      checkUnmodifiedSince(ctx, note.updated_at);
      await deleteNote(db, targetOf(noteable), note);
      ctx.status = 204;
    });
  }

  return router;
}
