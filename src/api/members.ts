// Members of groups and projects (GitLab 10.8 lib/api/members.rb): list, one, add, change,
// remove — the same five routes under /groups/:id and /projects/:id. Sign-in first, then the
// source (404 when invisible), then the permission (403), then the parameters. Reading needs
// only to see the source; adding and changing need admin_group (owner) / admin_project
// (master); changing and removing one membership also ask the member policy
// (update_/destroy_group_member, update_/destroy_project_member: a group's last owner and a
// personal project's owner stay; anyone may leave), inside the write's transaction.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { MemberRow } from '../store/rows.js';
import { recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findMember, membersQuery, type SourceType } from '../finders/members.js';
import { presentMember, presentMembers } from './present_people.js';
import { addMember, removeMember, updateMember } from '../services/members/members.js';
import { sourceOf, type Source } from './member_sources.js';

/** A DateTime parameter stored in a date column: the date as written, in its own offset. */
const expiresAt = () => p.datetimeAsDate().nullable(); // null clears the expiry

const MEMBER = { schema: 'Member' } as const;
const userId = { user_id: p.integer().required() };
const level = { ...userId, access_level: p.integer().required(), expires_at: expiresAt() };

async function memberOf(deps: Deps, source: Source, id: number): Promise<MemberRow> {
  const member = await findMember(deps.db, source.type, source.id, id);
  if (!member) throw recordNotFound();
  return member;
}

/** The five routes of one source type. */
function sourceRoutes(type: SourceType): Route[] {
  const base = `/${type}s/:id/members`;
  const admin = type === 'group' ? 'admin_group' : 'admin_project';
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      load: type,
      params: { query: p.string() },
      summary: `List a ${type}'s direct members`,
      response: { ...MEMBER, list: true },
      handler: async (req) => {
        const { id } = sourceOf(req);
        return presentMembers(req.deps, await paginate<MemberRow>(req.ctx, req.deps.db, membersQuery(req.deps.db, type, id, req.params.query)));
      },
    }),

    route({
      method: 'GET',
      path: `${base}/:user_id`,
      auth: 'user',
      load: type,
      params: userId,
      summary: `Get a member of a ${type}`,
      response: MEMBER,
      handler: async (req) => presentMember(req.deps, await memberOf(req.deps, sourceOf(req), req.params.user_id)),
    }),

    route({
      method: 'POST',
      path: base,
      auth: 'user',
      load: type,
      ability: admin,
      params: level,
      summary: `Add a member to a ${type}`,
      response: MEMBER,
      handler: async (req) => {
        const v = req.params;
        const member = await addMember(req.deps.db, {
          sourceType: type,
          sourceId: sourceOf(req).id,
          userId: v.user_id,
          accessLevel: v.access_level,
          expiresAt: v.expires_at ?? null,
          createdById: req.user.id,
        });
        return presentMember(req.deps, member);
      },
    }),

    route({
      method: 'PUT',
      path: `${base}/:user_id`,
      auth: 'user',
      load: type,
      ability: admin,
      params: level,
      summary: `Change a ${type} member's level or expiry date`,
      response: MEMBER,
      handler: async (req) => {
        const source = sourceOf(req);
        const v = req.params;
        const member = await memberOf(req.deps, source, v.user_id);
        const updated = await updateMember(req.deps.db, member, { accessLevel: v.access_level, expiresAt: v.expires_at }, source.guard('update'));
        return presentMember(req.deps, updated);
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:user_id`,
      auth: 'user',
      load: type,
      params: userId,
      summary: `Remove a member of a ${type} (or leave it)`,
      handler: async (req) => {
        const source = sourceOf(req);
        const member = await memberOf(req.deps, source, req.params.user_id);
        checkUnmodifiedSince(req.ctx, member.updated_at);
        await removeMember(req.deps.db, member, source.guard('destroy'));
      },
    }),
  ];
}

export const memberRoutes: Route[] = [...sourceRoutes('group'), ...sourceRoutes('project')];
