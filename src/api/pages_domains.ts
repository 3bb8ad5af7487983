// Custom Pages domains (GitLab 10.8 lib/api/pages_domains.rb): the admins' list of every domain
// (`GET /pages/domains`) and a project's five operations under `/projects/:id/pages/domains`.
// Pages are on when WHARF_PAGES_HOST is set; otherwise every route is `404 Not Found`, as
// GitLab answers with Pages off (and for a project in a subgroup, which Pages does not serve).
// GitLab's order: sign-in (401), the project (404 Project Not Found), Pages on (404), the
// ability (read_pages / update_pages: masters; the admins' list: admins, else 403), the domain
// (`404 PagesDomain Not Found`). `certificate` and `key` are PEM text, both or neither on
// create; the key is stored encrypted and never shown.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import type { PagesDomainRow } from '../store/pages_domain_rows.js';
import { forbidden, notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { can, GLOBAL } from '../policy/can.js';
import { allPagesDomainsQuery, findPagesDomain, projectPagesDomainsQuery } from '../finders/pages_domains.js';
import { createPagesDomain, deletePagesDomain, updatePagesDomain } from '../services/pages/domains.js';
import { certificateFacts } from '../services/pages/certificates.js';
import { pagesDomainBasicEntity, pagesDomainEntity } from '../entities/pages_domain.js';

const DOMAIN = { schema: 'PagesDomain' } as const;
const domainParam = { domain: p.string().required() };
const pem = () => p.textOrFile().notBlank(); // PEM text, or a file part of a multipart body

/** Project#pages_available?: Pages configured, and the project not in a subgroup. */
function requirePages(deps: Deps, project: ProjectWithNamespace): void {
  if (!deps.config.pagesHost || project.namespace.parent_id !== null) throw notFound();
}

const factsOf = (d: PagesDomainRow) => (d.certificate ? certificateFacts(d.certificate) : null);
const present = (d: PagesDomainRow) => pagesDomainEntity(d, factsOf(d));

async function domainOr404(deps: Deps, projectId: number, domain: string): Promise<PagesDomainRow> {
  const found = await findPagesDomain(deps.db, projectId, domain);
  if (!found) throw notFound('PagesDomain');
  return found;
}

const base = '/projects/:id/pages/domains';

export const pagesDomainRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/pages/domains',
    auth: 'user',
    summary: 'List every Pages domain of the instance (admins)',
    response: { schema: 'PagesDomainBasic', list: true },
    handler: async ({ ctx, deps, user }) => {
      if (!deps.config.pagesHost) throw notFound();
      if (!can(user, GLOBAL, 'read_all_pages_domains')) throw forbidden();
      const rows = await paginate<PagesDomainRow>(ctx, deps.db, allPagesDomainsQuery(deps.db));
      return rows.map((d) => pagesDomainBasicEntity(d, factsOf(d)));
    },
  }),

  route({
    method: 'GET',
    path: base,
    auth: 'user',
    load: 'project',
    summary: "List a project's Pages domains",
    response: { ...DOMAIN, list: true },
    handler: async ({ ctx, deps, project, authorize }) => {
      requirePages(deps, project);
      authorize('read_pages');
      return (await paginate<PagesDomainRow>(ctx, deps.db, projectPagesDomainsQuery(deps.db, project.id))).map(present);
    },
  }),

  route({
    method: 'GET',
    path: `${base}/:domain`,
    auth: 'user',
    load: 'project',
    params: domainParam,
    summary: 'Get a Pages domain of a project',
    response: DOMAIN,
    handler: async ({ deps, project, authorize, params }) => {
      requirePages(deps, project);
      authorize('read_pages');
      return present(await domainOr404(deps, project.id, params.domain));
    },
  }),

  route({
    method: 'POST',
    path: base,
    auth: 'user',
    load: 'project',
    params: { ...domainParam, certificate: pem(), key: pem() },
    rules: { allOrNoneOf: ['certificate', 'key'] },
    summary: "Add a custom domain to a project's Pages",
    response: DOMAIN,
    handler: async ({ deps, project, authorize, params: v }) => {
      requirePages(deps, project);
      authorize('update_pages');
      return present(await createPagesDomain(deps, project.id, { domain: v.domain, certificate: v.certificate ?? null, key: v.key ?? null }));
    },
  }),

  route({
    method: 'PUT',
    path: `${base}/:domain`,
    auth: 'user',
    load: 'project',
    params: { ...domainParam, certificate: pem(), key: pem() },
    summary: "Change a Pages domain's certificate and key (none given: both removed)",
    response: DOMAIN,
    handler: async ({ deps, project, authorize, params: v }) => {
      requirePages(deps, project);
      authorize('update_pages');
      const domain = await domainOr404(deps, project.id, v.domain);
      return present(await updatePagesDomain(deps, domain, { certificate: v.certificate ?? undefined, key: v.key ?? undefined }));
    },
  }),

  route({
    method: 'DELETE',
    path: `${base}/:domain`,
    auth: 'user',
    load: 'project',
    params: domainParam,
    summary: 'Remove a Pages domain of a project',
    handler: async ({ deps, project, authorize, params }) => {
      requirePages(deps, project);
      authorize('update_pages');
      await deletePagesDomain(deps.db, await domainOr404(deps, project.id, params.domain));
    },
  }),
];
