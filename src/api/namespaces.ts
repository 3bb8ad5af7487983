// Namespaces (GitLab 10.8 lib/api/namespaces.rb): the personal namespaces and groups a
// signed-in user may see (all, for admins), listed or one by id or full path; one the user may
// not read (read_namespace) is 404 Namespace Not Found. Group owners (and admins) also see
// member counts.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findNamespaceByIdOrPath, membersCountWithDescendants, namespacesQuery } from '../finders/namespaces.js';
import { administeredGroupIds, namespaceFacts } from '../policy/namespaces.js';
import { can } from '../policy/can.js';
import { namespaceEntity } from '../entities/namespace.js';

const NAMESPACE = { schema: 'Namespace' } as const;

/** Renders namespaces; one query for who administers which group, one for their counts. */
async function present(deps: Deps, user: UserRow, rows: NamespaceRow[]) {
  const groupIds = rows.filter((n) => n.kind === 'group').map((n) => n.id);
  const administered = [...(await administeredGroupIds(deps.db, user, groupIds))];
  const counts = await membersCountWithDescendants(deps.db, administered);
  return rows.map((n) => namespaceEntity(n, counts.get(n.id)));
}

export const namespaceRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/namespaces',
    auth: 'user',
    params: { search: p.anyString(), page: p.integer(), per_page: p.integer() },
    summary: "List the user's namespaces (every namespace for admins)",
    response: { ...NAMESPACE, list: true },
    handler: async ({ ctx, deps, user, params: v }) => present(deps, user, await paginate<NamespaceRow>(ctx, deps.db, namespacesQuery(deps.db, user, v.search))),
  }),

  route({
    method: 'GET',
    path: '/namespaces/:id',
    auth: 'user',
    summary: 'Get a namespace by id or full path',
    response: NAMESPACE,
    handler: async ({ deps, user, path }) => {
      const ns = await findNamespaceByIdOrPath(deps.db, path.id);
      if (!ns || !can(user, { kind: 'namespace', ...(await namespaceFacts(deps.db, user, ns)) }, 'read_namespace')) throw notFound('Namespace');
      return (await present(deps, user, [ns]))[0];
    },
  }),
];
