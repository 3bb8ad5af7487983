// CI variables of projects and groups (GitLab 10.8's lib/api/variables.rb and
// group_variables.rb): list, one by key, create, update, delete — the same five routes under
// /projects/:id and /groups/:id, all for signed-in users with admin_build (masters; a project
// with jobs disabled refuses it). Shape {key, value, protected}. A key not there is
// `404 Variable Not Found` (project) or `404 GroupVariable Not Found` (group), as 10.8 names
// its models. Model rules (key format, uniqueness) are services/ci/variables.ts's. The value
// is a secret the runner hands to jobs: it is answered here and nowhere else.
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { Deps } from '../deps.js';
import { findVariable, variablesQuery, type VariableOwner } from '../finders/ci_variable_lists.js';
import { createVariable, deleteVariable, updateVariable } from '../services/ci/variables.js';
import { revealValue } from '../services/ci/variable_values.js';
import { variableEntity } from '../entities/ci_variable.js';
import { NotFound } from '../store/domain_errors.js';
import type { VariableRow } from '../store/ci_rows.js';
import { route, type Route } from './core/route.js';

const VARIABLE = { schema: 'Variable' } as const;
const byKey = { key: p.string().required() };

/** What 10.8's not_found! names: the model of the owner's variables. */
const MODEL_NAME = { project: 'Variable', group: 'GroupVariable' } as const;

async function variableOr404(deps: Deps, owner: VariableOwner, key: string): Promise<VariableRow> {
  const variable = await findVariable(deps.db, owner, key);
  if (!variable) throw new NotFound(MODEL_NAME[owner.kind]);
  return { ...variable, value: revealValue(deps.config, variable.value) };
}

type OwnerRequest = { project?: { id: number }; group?: { id: number } };

function ownerRoutes(type: 'project' | 'group'): Route[] {
  const ownerOf = (req: OwnerRequest): VariableOwner => ({ kind: type, id: (type === 'project' ? req.project : req.group)!.id });
  const base = `/${type}s/:id/variables`;
  const common = { auth: 'user', load: type, ability: 'admin_build' } as const;
  const noun = type === 'project' ? 'a project' : 'a group';
  return [
    route({
      ...common,
      method: 'GET',
      path: base,
      summary: `Get ${type}${type === 'group' ? '-level' : ''} variables`,
      response: { ...VARIABLE, list: true },
      handler: async (req) => {
        const rows = await paginate<VariableRow>(req.ctx, req.deps.db, variablesQuery(req.deps.db, ownerOf(req)));
        return rows.map((v) => variableEntity({ ...v, value: revealValue(req.deps.config, v.value) }));
      },
    }),
    route({
      ...common,
      method: 'GET',
      path: `${base}/:key`,
      params: byKey,
      summary: `Get a specific variable from ${noun}`,
      response: VARIABLE,
      handler: async (req) => variableEntity(await variableOr404(req.deps, ownerOf(req), req.params.key)),
    }),
    route({
      ...common,
      method: 'POST',
      path: base,
      params: { key: p.string().required(), value: p.string().required(), protected: p.string() },
      summary: `Create a new variable in ${noun}`,
      response: VARIABLE,
      handler: async (req) => variableEntity(await createVariable(req.deps.db, req.deps.config, ownerOf(req), req.params)),
    }),
    route({
      ...common,
      method: 'PUT',
      path: `${base}/:key`,
      // 10.8 declares `value` optional here (the spec's table says required): a client that
      // sends only `protected` (python-gitlab's save() of that one change) is answered.
      params: { ...byKey, value: p.string(), protected: p.string() },
      summary: `Update an existing variable from ${noun}`,
      response: VARIABLE,
      handler: async (req) => {
        const owner = ownerOf(req);
        const variable = await variableOr404(req.deps, owner, req.params.key);
        return variableEntity(await updateVariable(req.deps.db, req.deps.config, owner, variable, { value: req.params.value, protected: req.params.protected }));
      },
    }),
    route({
      ...common,
      method: 'DELETE',
      path: `${base}/:key`,
      params: byKey,
      summary: `Delete an existing variable from ${noun}`,
      handler: async (req) => {
        const owner = ownerOf(req);
        await deleteVariable(req.deps.db, owner, await variableOr404(req.deps, owner, req.params.key));
        return undefined;
      },
    }),
  ];
}

export const projectVariableRoutes: Route[] = ownerRoutes('project');
export const groupVariableRoutes: Route[] = ownerRoutes('group');
