// Badges of groups and projects (GitLab 10.8 lib/api/badges.rb): list, render (a preview that
// stores nothing), one, add, change, remove — the same six routes under /groups/:id and
// /projects/:id. Reading needs only to see the source (anonymous callers too); render and the
// writes need admin_group (owners) / admin_project (masters). A project's list holds its own
// badges and its groups' (`kind` says which); one of its groups' badges is changed and removed
// only through the group (403). A project renders placeholders with itself; a group with its
// newest project the caller sees, else not at all. A badge not in the list is `404 Not found`.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import type { BadgeRow } from '../store/badge_rows.js';
import type { BadgePlaceholders } from '../store/badge_urls.js';
import { ApiError, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import type { GroupSubject } from '../policy/can.js';
import { badgeProjectOfGroup, findGroupBadge, findProjectBadge, groupBadgesQuery, projectBadgesQuery } from '../finders/badges.js';
import { badgePlaceholders, badgeErrors, createBadge, deleteBadge, updateBadge, type BadgeOwner } from '../services/badges.js';
import { Invalid } from '../store/domain_errors.js';
import { badgeEntity, basicBadgeDetails } from '../entities/badge.js';

const BADGE = { schema: 'Badge' } as const;
const badgeId = { badge_id: p.integer().required() };
const bothUrls = { link_url: p.string().required(), image_url: p.string().required() };

type SourceRequest = { deps: Deps; user: UserRow | null } & ({ project: ProjectWithNamespace } | { subject: GroupSubject });

/** One source's badges: its list, one of it, the owner of new ones and the project they render with. */
interface Source {
  owner: BadgeOwner;
  list(): ReturnType<typeof groupBadgesQuery>;
  find(id: number): Promise<BadgeRow | undefined>;
  placeholders(): Promise<BadgePlaceholders | null>;
}

function sourceOf(req: SourceRequest): Source {
  const { db, repos } = req.deps;
  if ('project' in req) {
    const project = req.project;
    return {
      owner: { type: 'ProjectBadge', projectId: project.id },
      list: () => projectBadgesQuery(db, project),
      find: (id) => findProjectBadge(db, project, id),
      placeholders: () => badgePlaceholders(repos, project),
    };
  }
  const group = req.subject.group;
  return {
    owner: { type: 'GroupBadge', groupId: group.id },
    list: () => groupBadgesQuery(db, group.id),
    find: (id) => findGroupBadge(db, group.id, id),
    placeholders: async () => {
      const project = await badgeProjectOfGroup(db, req.user, group.id);
      return project ? badgePlaceholders(repos, project) : null;
    },
  };
}

async function badgeOr404(source: Source, id: number): Promise<BadgeRow> {
  const badge = await source.find(id);
  if (!badge) throw recordNotFound();
  return badge;
}

/**
 * A group's badge seen through one of its projects is changed only through the group. 10.8's
 * DELETE answers with Grape's `error!` of a string (`{"error": …}`); its PUT changed the group's
 * badge, which Wharf refuses in the same words under GitLab's usual `message`.
 */
function ownBadge(source: Source, badge: BadgeRow, verb: 'update' | 'delete'): void {
  if (source.owner.type === 'ProjectBadge' && badge.type === 'GroupBadge') {
    const text = `To ${verb} a Group badge please use the Group endpoint`;
    throw new ApiError(403, verb === 'delete' ? { error: text } : { message: text });
  }
}

function sourceRoutes(type: 'group' | 'project'): Route[] {
  const base = `/${type}s/:id/badges`;
  const admin = type === 'group' ? 'admin_group' : 'admin_project';
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'anonymous',
      load: type,
      summary: `List a ${type}'s badges${type === 'project' ? " (its own and its groups')" : ''}`,
      response: { ...BADGE, list: true },
      handler: async (req) => {
        const source = sourceOf(req);
        const badges = await paginate<BadgeRow>(req.ctx, req.deps.db, source.list());
        const placeholders = badges.length ? await source.placeholders() : null;
        return badges.map((b) => badgeEntity(b, placeholders));
      },
    }),

    route({
      method: 'GET',
      path: `${base}/render`,
      auth: 'user',
      load: type,
      ability: admin,
      params: bothUrls,
      summary: `Preview a badge of a ${type} (nothing is stored)`,
      response: { schema: 'BasicBadgeDetails' },
      handler: async (req) => {
        const urls = { link_url: req.params.link_url.trim(), image_url: req.params.image_url.trim() };
        const errors = badgeErrors(urls);
        if (errors) throw new Invalid(errors);
        return basicBadgeDetails(urls, await sourceOf(req).placeholders());
      },
    }),

    route({
      method: 'GET',
      path: `${base}/:badge_id`,
      auth: 'anonymous',
      load: type,
      params: badgeId,
      summary: `Get a badge of a ${type}`,
      response: BADGE,
      handler: async (req) => {
        const source = sourceOf(req);
        return badgeEntity(await badgeOr404(source, req.params.badge_id), await source.placeholders());
      },
    }),

    route({
      method: 'POST',
      path: base,
      auth: 'user',
      load: type,
      ability: admin,
      params: bothUrls,
      summary: `Add a badge to a ${type}`,
      response: BADGE,
      handler: async (req) => {
        const source = sourceOf(req);
        const badge = await createBadge(req.deps.db, source.owner, { link_url: req.params.link_url, image_url: req.params.image_url });
        return badgeEntity(badge, await source.placeholders());
      },
    }),

    route({
      method: 'PUT',
      path: `${base}/:badge_id`,
      auth: 'user',
      load: type,
      ability: admin,
      params: { ...badgeId, link_url: p.string(), image_url: p.string() },
      summary: `Change a badge of a ${type}`,
      response: BADGE,
      handler: async (req) => {
        const source = sourceOf(req);
        const badge = await badgeOr404(source, req.params.badge_id);
        ownBadge(source, badge, 'update');
        const updated = await updateBadge(req.deps.db, badge, { link_url: req.params.link_url ?? undefined, image_url: req.params.image_url ?? undefined });
        return badgeEntity(updated, await source.placeholders());
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:badge_id`,
      auth: 'user',
      load: type,
      ability: admin,
      params: badgeId,
      summary: `Remove a badge of a ${type}`,
      handler: async (req) => {
        const source = sourceOf(req);
        const badge = await badgeOr404(source, req.params.badge_id);
        ownBadge(source, badge, 'delete');
        checkUnmodifiedSince(req.ctx, badge.updated_at);
        await deleteBadge(req.deps.db, badge);
      },
    }),
  ];
}

export const badgeRoutes: Route[] = [...sourceRoutes('group'), ...sourceRoutes('project')];
