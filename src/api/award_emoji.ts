// Award emoji (GitLab 10.8 lib/api/award_emoji.rb) on issues, merge requests and their notes:
// `/projects/:id/{issues|merge_requests}/:iid[/notes/:note_id]/award_emoji[/:award_id]`.
// Every route needs a signed-in user. The target is looked up in the project without
// visibility (`404 Not found` when missing); a target the user may not read is
// `404 Award Emoji Not Found`, as is an award the user may not give (archived project, a vote
// on what they authored). An invalid award answers GitLab's odd 404 carrying the model errors
// (`404 Award Emoji {:name=>["has already been taken"]} Not Found`). Only the award's owner
// (or an admin) removes it: others get GitLab's 401. Unlike 10.8, removing also needs a
// readable target, so a confidential issue's awards stay hidden.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { loadProject, type LoadedProject } from './loaders.js';
import { requireUser } from '../http/auth.js';
import { ApiError, notFound, recordNotFound, unauthorized } from '../http/errors.js';
import { p, parseValues, rawParams } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findNoteable, iidParamName, intParam, NOTEABLE_KINDS, rubyErrors, type Noteable, type NoteableKind } from './noteables.js';
import { findNote } from '../services/notes.js';
import { awardsQuery, createAward, deleteAward, findAward, normalizeEmojiName, type Awardable, type AwardRow } from '../services/award_emoji.js';
import { canAward, canRemoveAward } from '../policy/notes.js';
import { presentAwards } from '../entities/award_emoji.js';

interface Resolved {
  user: UserRow;
  loaded: LoadedProject;
  noteable: Noteable;
  awardable: Awardable;
  /** Who authored the awardable (no votes on one's own). */
  authorId: number | null;
}

const awardNotFound = () => notFound('Award Emoji');

export function awardEmojiRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  async function resolve(ctx: Koa.Context, kind: NoteableKind, onNote: boolean): Promise<Resolved> {
    const user = requireUser(ctx);
    const loaded = await loadProject(ctx, deps);
    const noteable = await findNoteable(deps, loaded, user, kind, intParam(ctx, 'iid', iidParamName(kind)));
    if (!noteable) throw recordNotFound();
    if (!onNote) return { user, loaded, noteable, awardable: { type: noteable.type, id: noteable.id }, authorId: noteable.authorId };
    const note = await findNote(db, { type: noteable.type, id: noteable.id, projectId: noteable.projectId }, intParam(ctx, 'note_id'));
    if (!note) throw recordNotFound();
    return { user, loaded, noteable, awardable: { type: 'Note', id: note.id }, authorId: note.author_id };
  }

  async function loadAward(ctx: Koa.Context, r: Resolved): Promise<AwardRow> {
    const award = await findAward(db, r.awardable, intParam(ctx, 'award_id'));
    if (!award) throw recordNotFound();
    return award;
  }

  for (const kind of NOTEABLE_KINDS) {
    for (const onNote of [false, true]) {
      const base = `/projects/:id/${kind}/:iid${onNote ? '/notes/:note_id' : ''}/award_emoji`;

      router.get(base, async (ctx) => {
        const r = await resolve(ctx, kind, onNote);
        if (!r.noteable.readable) throw awardNotFound();
        const rows = await paginate<AwardRow>(ctx, db, awardsQuery(db, r.awardable));
        ctx.body = await presentAwards(db, deps.urls, rows);
      });

      router.get(`${base}/:award_id`, async (ctx) => {
        const r = await resolve(ctx, kind, onNote);
        if (!r.noteable.readable) throw awardNotFound();
        ctx.body = (await presentAwards(db, deps.urls, [await loadAward(ctx, r)]))[0];
      });

      router.post(base, async (ctx) => {
        const r = await resolve(ctx, kind, onNote);
        if (!r.noteable.readable) throw awardNotFound();
        const v = parseValues(rawParams(ctx), { name: p.string().required() });
        const target = { readable: r.noteable.readable, authorId: r.authorId };
        if (!canAward(r.user, r.loaded.project, r.loaded.access, target, normalizeEmojiName(v.name))) throw awardNotFound();
        const todoTarget = { type: r.noteable.type, id: r.noteable.id, projectId: r.noteable.projectId };
        const result = await createAward(db, r.awardable, todoTarget, r.user, v.name);
        if (result.errors) throw new ApiError(404, { message: `404 Award Emoji ${rubyErrors(result.errors)} Not Found` });
        ctx.status = 201;
        ctx.body = (await presentAwards(db, deps.urls, [result.award]))[0];
      });

      router.delete(`${base}/:award_id`, async (ctx) => {
        const r = await resolve(ctx, kind, onNote);
        if (!r.noteable.readable) throw awardNotFound();
        const award = await loadAward(ctx, r);
        if (!canRemoveAward(r.user, award)) throw unauthorized();
        checkUnmodifiedSince(ctx, award.updated_at);
        await deleteAward(db, award);
        ctx.status = 204;
      });
    }
  }

  return router;
}
