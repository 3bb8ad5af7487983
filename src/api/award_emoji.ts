// Award emoji (GitLab 10.8 lib/api/award_emoji.rb) on issues, merge requests, project snippets
// and their notes: `/projects/:id/{issues|merge_requests}/:<kind>_iid[/notes/:note_id]/award_emoji[/:award_id]`
// and `/projects/:id/snippets/:snippet_id[/notes/:note_id]/award_emoji[/:award_id]`.
// Every route needs a signed-in user; the route table loads the project and parses the ids
// (400 "issue_iid is invalid") first. The target is looked up in the project without
// visibility (`404 Not found` when missing); a target the user may not read is
// `404 Award Emoji Not Found`, as is an award the user may not give (award_emoji refused, e.g.
// on an archived project, or a vote on what they authored). An invalid award answers GitLab's
// odd 404 carrying the model errors (`404 Award Emoji {:name=>["has already been taken"]} Not
// Found`). Only the award's owner (or an admin) removes it: others get GitLab's 401. Unlike
// 10.8, removing also needs a readable target, so a confidential issue's awards stay hidden.
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { LoadedProject } from './core/loaders.js';
import { route, type Route } from './core/route.js';
import { ApiError, notFound, recordNotFound, unauthorized } from '../http/errors.js';
import { p, type Param } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findNoted, iidParamName, NOTED_KINDS, noteSubject, rubyErrors, type NotedKind, type NotedObject } from './noteables.js';
import { findNote } from '../finders/notes.js';
import { awardsQuery, createAward, deleteAward, findAward, normalizeEmojiName, type Awardable } from '../services/issuables/award_emoji.js';
import type { AwardRow } from '../store/issuable_rows.js';
import { can, type IssueSubject, type MergeRequestSubject, type NoteSubject, type ProjectSnippetSubject } from '../policy/can.js';
import { awardableByUser } from '../policy/notes.js';
import { presentAwards } from './present_people.js';

interface Resolved {
  noteable: NotedObject;
  awardable: Awardable;
  /** The policy subject awarded: the issue, the merge request, the snippet or the note. */
  subject: IssueSubject | MergeRequestSubject | ProjectSnippetSubject | NoteSubject;
  /** Who authored the awardable (no votes on one's own). */
  authorId: number | null;
}

const AWARD = { schema: 'AwardEmoji' } as const;
const awardNotFound = () => notFound('Award Emoji');

/** The ids of the route's path: `<kind>_iid`, and `note_id` on a note's awards. */
type Ids = Record<string, Param<number, true>>;

/** The noteable (or its note) of the route, readable, or GitLab's 404s. */
async function resolve(deps: Deps, loaded: LoadedProject, kind: NotedKind, ids: Record<string, unknown>): Promise<Resolved> {
  const noteable = await findNoted(deps, loaded, kind, ids[iidParamName(kind)] as number);
  if (!noteable) throw recordNotFound();
  let resolved: Resolved = { noteable, awardable: { type: noteable.type, id: noteable.id }, subject: noteable.subject, authorId: noteable.authorId };
  if (ids.note_id !== undefined) {
    const note = await findNote(deps.db, { type: noteable.type, id: noteable.id, projectId: noteable.projectId }, ids.note_id as number);
    if (!note) throw recordNotFound();
    resolved = { noteable, awardable: { type: 'Note', id: note.id }, subject: noteSubject(noteable, note), authorId: note.author_id };
  }
  if (!noteable.readable) throw awardNotFound();
  return resolved;
}

async function awardOr404(deps: Deps, r: Resolved, id: number): Promise<AwardRow> {
  const award = await findAward(deps.db, r.awardable, id);
  if (!award) throw recordNotFound();
  return award;
}

/** Awardable#user_can_award?: the award_emoji ability on the target, and no vote on one's own. */
function mayAward(user: UserRow, r: Resolved, name: string): boolean {
  return can(user, r.subject, 'award_emoji') && awardableByUser(user, r.authorId, normalizeEmojiName(name));
}

const WHAT: Record<NotedKind, string> = { issues: 'an issue', merge_requests: 'a merge request', snippets: 'a project snippet' };

function routesOf(kind: NotedKind, onNote: boolean): Route[] {
  const iid = iidParamName(kind);
  const base = `/projects/:id/${kind}/:${iid}${onNote ? '/notes/:note_id' : ''}/award_emoji`;
  const ids: Ids = { [iid]: p.integer().required(), ...(onNote ? { note_id: p.integer().required() } : {}) };
  const withAward: Ids = { ...ids, award_id: p.integer().required() };
  const what = `${WHAT[kind]}${onNote ? "'s note" : ''}`;
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      load: 'project',
      params: ids,
      summary: `List the award emoji of ${what}`,
      response: { ...AWARD, list: true },
      handler: async ({ ctx, deps, loaded, params }) => {
        const r = await resolve(deps, loaded, kind, params);
        return presentAwards(deps.db, deps.urls, await paginate<AwardRow>(ctx, deps.db, awardsQuery(deps.db, r.awardable)));
      },
    }),

    route({
      method: 'GET',
      path: `${base}/:award_id`,
      auth: 'user',
      load: 'project',
      params: withAward,
      summary: `Get an award emoji of ${what}`,
      response: AWARD,
      handler: async ({ deps, loaded, params }) => {
        const r = await resolve(deps, loaded, kind, params);
        return (await presentAwards(deps.db, deps.urls, [await awardOr404(deps, r, params.award_id)]))[0];
      },
    }),

    route({
      method: 'POST',
      path: base,
      auth: 'user',
      load: 'project',
      params: { ...ids, name: p.string().required() } as Ids & { name: Param<string, true> },
      summary: `Award an emoji to ${what}`,
      response: AWARD,
      handler: async ({ deps, user, loaded, params }) => {
        const r = await resolve(deps, loaded, kind, params);
        if (!mayAward(user, r, params.name)) throw awardNotFound();
        const type = r.noteable.type;
        const todoTarget = type === 'Snippet' ? null : { type, id: r.noteable.id, projectId: r.noteable.projectId };
        const result = await createAward(deps.db, r.awardable, todoTarget, user, params.name);
        if (result.errors) throw new ApiError(404, { message: `404 Award Emoji ${rubyErrors(result.errors)} Not Found` });
        return (await presentAwards(deps.db, deps.urls, [result.award]))[0];
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:award_id`,
      auth: 'user',
      load: 'project',
      params: withAward,
      summary: `Remove an award emoji from ${what}`,
      handler: async ({ ctx, deps, user, loaded, params }) => {
        const r = await resolve(deps, loaded, kind, params);
        const award = await awardOr404(deps, r, params.award_id);
        if (!can(user, { kind: 'award', award }, 'destroy_award_emoji')) throw unauthorized();
        checkUnmodifiedSince(ctx, award.updated_at);
        await deleteAward(deps.db, award);
      },
    }),
  ];
}

export const awardEmojiRoutes: Route[] = NOTED_KINDS.flatMap((kind) => [false, true].flatMap((onNote) => routesOf(kind, onNote)));
