// Members of groups and projects: list, one, add, change, remove — the same five routes under
// /groups/:id and /projects/:id. As in GitLab 10.8: sign-in first, then parameters, then the
// source (404 when invisible), then the permission (403). Reading needs only to see the source;
// adding and changing need admin_group (owner) / admin_project (master); removing needs
// that or to be the member yourself, and a group's last owner stays.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import type { MemberRow, UserRow } from '../store/rows.js';
import { requireUser } from '../http/auth.js';
import { forbidden, recordNotFound } from '../http/errors.js';
import { coerceDateTime, coerceString, p, Param, parseValues, rawParams, type Schema, type Parsed } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { canOnGroup } from '../policy/groups.js';
import { canOnGroupMember, canOnProjectMember, type MemberAction } from '../policy/members.js';
import { findMember, membersQuery, type SourceType } from '../finders/members.js';
import { presentMember, presentMembers } from '../entities/member.js';
import { addMember, removeMember, updateMember, type MemberGuard } from '../services/members.js';
import { loadGroup, loadProject } from './loaders.js';

/** A date, or a full timestamp of which the date as written is kept (GitLab stores a date). */
const expiresAt = () =>
  new Param<string>((raw) => {
    coerceDateTime(raw);
    return coerceString(raw).trim().slice(0, 10);
  });

/** A membership source as the routes need it: its id, who may manage it, and the removal rules. */
interface Source {
  type: SourceType;
  id: number;
  /** admin_group / admin_project: add and change members. */
  canAdmin(): Promise<boolean>;
  /** The member policy, asked inside the write transaction. */
  guard(action: MemberAction): MemberGuard;
}

async function loadSource(ctx: Koa.Context, deps: Deps, type: SourceType, user: UserRow): Promise<Source> {
  if (type === 'group') {
    const group = await loadGroup(ctx, deps);
    return {
      type,
      id: group.id,
      canAdmin: () => canOnGroup(deps.db, user, group, 'admin_group'),
      guard: (action) => async (tx, member) => {
        if (!(await canOnGroupMember(tx, user, group, member, action))) throw forbidden();
      },
    };
  }
  const loaded = await loadProject(ctx, deps);
  return {
    type,
    id: loaded.project.id,
    canAdmin: async () => loaded.can('admin_project'),
    guard: (action) => async (_tx, member) => {
      if (!canOnProjectMember(user, loaded.project, loaded.access, member, action)) throw forbidden();
    },
  };
}

/** Parameters with the route's `user_id`, which wins over one in the body (as in Grape). */
function parseWithUserId<S extends Schema>(ctx: Koa.Context, schema: S): Parsed<S> {
  const raw = rawParams(ctx);
  if (ctx.params.user_id !== undefined) raw.user_id = ctx.params.user_id;
  return parseValues(raw, schema);
}

async function memberOf(deps: Deps, source: Source, userId: number): Promise<MemberRow> {
  const member = await findMember(deps.db, source.type, source.id, userId);
  if (!member) throw recordNotFound();
  return member;
}

export function membersRouter(deps: Deps): Router {
  const router = new Router();

  for (const type of ['group', 'project'] as const) {
    const base = `/${type}s/:id/members`;

    router.get(base, async (ctx) => {
      const user = requireUser(ctx);
      const source = await loadSource(ctx, deps, type, user);
      const v = parseWithUserId(ctx, { query: p.string() });
      const rows = await paginate<MemberRow>(ctx, deps.db, membersQuery(deps.db, type, source.id, v.query));
      ctx.body = await presentMembers(deps, rows);
    });

    router.get(`${base}/:user_id`, async (ctx) => {
      const user = requireUser(ctx);
      const source = await loadSource(ctx, deps, type, user);
      const v = parseWithUserId(ctx, { user_id: p.integer().required() });
      ctx.body = await presentMember(deps, await memberOf(deps, source, v.user_id));
    });

    router.post(base, async (ctx) => {
      const user = requireUser(ctx);
      const source = await loadSource(ctx, deps, type, user);
      if (!(await source.canAdmin())) throw forbidden();
      const v = parseWithUserId(ctx, {
        user_id: p.integer().required(),
        access_level: p.integer().required(),
        expires_at: expiresAt(),
      });
      const member = await addMember(deps.db, {
        sourceType: type,
        sourceId: source.id,
        userId: v.user_id,
        accessLevel: v.access_level,
        expiresAt: v.expires_at ?? null,
        createdById: user.id,
      });
      ctx.status = 201;
      ctx.body = await presentMember(deps, member);
    });

    router.put(`${base}/:user_id`, async (ctx) => {
      const user = requireUser(ctx);
      const source = await loadSource(ctx, deps, type, user);
      if (!(await source.canAdmin())) throw forbidden();
      const v = parseWithUserId(ctx, {
        user_id: p.integer().required(),
        access_level: p.integer().required(),
        expires_at: expiresAt(),
      });
      const member = await memberOf(deps, source, v.user_id);
      const updated = await updateMember(deps.db, member, { accessLevel: v.access_level, expiresAt: v.expires_at }, source.guard('update'));
      ctx.body = await presentMember(deps, updated);
    });

    router.delete(`${base}/:user_id`, async (ctx) => {
      const user = requireUser(ctx);
      const source = await loadSource(ctx, deps, type, user);
      const v = parseWithUserId(ctx, { user_id: p.integer().required() });
      const member = await memberOf(deps, source, v.user_id);
      checkUnmodifiedSince(ctx, member.updated_at);
      await removeMember(deps.db, member, source.guard('destroy'));
      ctx.status = 204;
    });
  }

  return router;
}
