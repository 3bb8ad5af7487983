// Access requests of groups and projects (GitLab 10.8 lib/api/access_requests.rb): list (those
// who manage members: admin_group / admin_project, else 403), request (the caller: 403 unless
// the source's request_access_enabled is on and the caller sees it without being a member;
// 400 `user_id already exists in source` when they asked already), approve (201 with the new
// Member; `access_level` defaults to developer) and deny or withdraw (204). Approving and
// denying ask the member policy of the request (update_/destroy_*_member), so the requester
// may withdraw; a user with no pending request is `404 Not found`.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { MemberRow } from '../store/rows.js';
import { forbidden, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { can } from '../policy/can.js';
import { projectRequestFacts } from '../policy/access_requests.js';
import type { SourceType } from '../finders/members.js';
import { findRequester, requestersQuery, requestersUsers } from '../finders/access_requests.js';
import { presentAccessRequesters } from '../entities/access_requester.js';
import { presentMember } from './present_people.js';
import { approveAccessRequest, removeAccessRequest, requestAccess } from '../services/members/access_requests.js';
import { sourceOf, type Source, type SourceRequest } from './member_sources.js';
import { DEVELOPER } from '../store/levels.js';

async function requestOf(deps: Deps, source: Source, userId: number): Promise<MemberRow> {
  const request = await findRequester(deps.db, source.type, source.id, userId);
  if (!request) throw recordNotFound();
  return request;
}

async function present(deps: Deps, requests: MemberRow[]) {
  return presentAccessRequesters(requests, await requestersUsers(deps.db, requests), deps.urls);
}

/** May the caller ask to join the loaded source? (A group's answer is the route's ability.) */
async function mayRequest(deps: Deps, req: SourceRequest): Promise<boolean> {
  if (!('loaded' in req)) return true;
  const { project, access } = req.loaded;
  const facts = await projectRequestFacts(deps.db, req.user, project);
  return can(req.user, { kind: 'project_access_request', project, access, facts }, 'request_access');
}

function sourceRoutes(type: SourceType): Route[] {
  const base = `/${type}s/:id/access_requests`;
  const userId = { user_id: p.integer().required() };
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      load: type,
      ability: type === 'group' ? 'admin_group' : 'admin_project',
      summary: `List the pending access requests of a ${type}`,
      response: { schema: 'AccessRequester', list: true },
      handler: async (req) => {
        const { id } = sourceOf(req);
        return present(req.deps, await paginate<MemberRow>(req.ctx, req.deps.db, requestersQuery(req.deps.db, type, id)));
      },
    }),

    route({
      method: 'POST',
      path: base,
      auth: 'user',
      load: type,
      ...(type === 'group' ? { ability: 'request_access' as const } : {}),
      summary: `Ask to join a ${type}`,
      response: { schema: 'AccessRequester' },
      handler: async (req) => {
        if (!(await mayRequest(req.deps, req))) throw forbidden();
        const request = await requestAccess(req.deps.db, type, sourceOf(req).id, req.user.id);
        return (await present(req.deps, [request]))[0];
      },
    }),

    route({
      method: 'PUT',
      path: `${base}/:user_id/approve`,
      auth: 'user',
      load: type,
      params: { ...userId, access_level: p.integer().default(DEVELOPER) },
      status: 201,
      summary: `Approve an access request to a ${type}`,
      response: { schema: 'Member' },
      handler: async (req) => {
        const source = sourceOf(req);
        const request = await requestOf(req.deps, source, req.params.user_id);
        return presentMember(req.deps, await approveAccessRequest(req.deps.db, request, req.params.access_level, source.guard('update')));
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:user_id`,
      auth: 'user',
      load: type,
      params: userId,
      summary: `Deny (or withdraw) an access request to a ${type}`,
      handler: async (req) => {
        const source = sourceOf(req);
        await removeAccessRequest(req.deps.db, await requestOf(req.deps, source, req.params.user_id), source.guard('destroy'));
      },
    }),
  ];
}

export const accessRequestRoutes: Route[] = [...sourceRoutes('group'), ...sourceRoutes('project')];
