// Namespaces: the personal namespaces and groups a signed-in user may see (all, for admins),
// listed or one by id or full path. Group owners (and admins) also see member counts.
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import type { NamespaceRow, UserRow } from '../store/rows.js';
import { requireUser } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { p, parse } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { findNamespaceByIdOrPath, membersCountWithDescendants, namespacesQuery } from '../finders/namespaces.js';
import { administeredGroupIds, canReadNamespace } from '../policy/namespaces.js';
import { namespaceEntity } from '../entities/namespace.js';

/** Renders namespaces; one query for who administers which group, one for their counts. */
async function present(deps: Deps, user: UserRow, rows: NamespaceRow[]) {
  const groupIds = rows.filter((n) => n.kind === 'group').map((n) => n.id);
  const administered = [...(await administeredGroupIds(deps.db, user, groupIds))];
  const counts = await membersCountWithDescendants(deps.db, administered);
  return rows.map((n) => namespaceEntity(n, counts.get(n.id)));
}

export function namespacesRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/namespaces', async (ctx) => {
    const user = requireUser(ctx);
    const v = parse(ctx, { search: p.string(), page: p.integer(), per_page: p.integer() });
    const rows = await paginate<NamespaceRow>(ctx, deps.db, namespacesQuery(deps.db, user, v.search));
    ctx.body = await present(deps, user, rows);
  });

  router.get('/namespaces/:id', async (ctx) => {
    const user = requireUser(ctx);
    const ns = await findNamespaceByIdOrPath(deps.db, ctx.params.id);
    if (!ns || !(await canReadNamespace(deps.db, user, ns))) throw notFound('Namespace');
    ctx.body = (await present(deps, user, [ns]))[0];
  });

  return router;
}
