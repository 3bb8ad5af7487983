// One route of the table as an OpenAPI operation: its parameters (path; query for GET and
// DELETE; a JSON or form body for a POST or PUT that takes one, as mount() reads them), who may
// call it, and what it answers, including the errors mount() itself raises in GitLab's order
// (401 authentication, 404 the subject, 403 the ability, 400 the parameters).
import type { Param } from '../../../http/params.js';
import { statusOf, takesBody, type Route } from '../route.js';
import type { JsonSchema } from './gitlab_schemas.js';
import type { OpenApiPath } from './paths.js';

const SIGNED_IN = [{ private_token: [] }, { private_token_query: [] }, { bearer: [] }];

const SUBJECT: Record<string, string> = { project: 'project', group: 'group', user: 'user', merge_request: 'merge request' };

const ID_DESCRIPTION: Record<string, string> = {
  project: "The project's id or its URL-encoded path (`group%2Fproject`).",
  group: "The group's id or its URL-encoded full path.",
  user: "The user's id.",
};

/** A declared parameter's value schema: its type, allowed values and default. */
function paramSchema(param: Param<unknown, boolean>): JsonSchema {
  const base: JsonSchema = { ...(param.valueSchema ?? {}) };
  if (!param.valueSchema) base.description = 'Checked by the endpoint itself.';
  if (param.allowed) {
    if (base.type === 'array') base.items = { ...(base.items as JsonSchema), enum: [...param.allowed] };
    else base.enum = [...param.allowed];
  }
  if (param.fallback !== undefined) base.default = param.fallback;
  // A nullable parameter takes null as a value of its own (it clears); any other null counts as not given.
  if (param.nullAllowed && typeof base.type === 'string') {
    base.type = [base.type, 'null'];
    if (Array.isArray(base.enum)) base.enum = [...base.enum, null];
  }
  if (!param.blankAllowed) {
    if (base.type === 'string') base.minLength = 1;
    if (base.type === 'array') base.minItems = 1;
  }
  return base;
}

const isRequired = (param: Param<unknown, boolean>) => param.isRequired && param.fallback === undefined;

function pathParameters(r: Route, path: OpenApiPath): JsonSchema[] {
  return path.params.map(({ name, wildcard }) => {
    const declared = r.params?.[name];
    const schema = declared ? paramSchema(declared) : name === 'id' && r.load === 'user' ? { type: 'integer' } : { type: 'string' };
    const words = [name === 'id' && r.load ? ID_DESCRIPTION[r.load] : undefined, wildcard ? 'May contain slashes.' : undefined].filter(Boolean);
    return { name, in: 'path', required: true, schema, ...(words.length ? { description: words.join(' ') } : {}) };
  });
}

function queryParameter(name: string, param: Param<unknown, boolean>): JsonSchema {
  const schema = paramSchema(param);
  // `custom_attributes[key]=value`; arrays as `iids[]=1&iids[]=2` or repeated keys (qs reads both).
  const style = schema.type === 'object' ? { style: 'deepObject', explode: true } : {};
  return { name, in: 'query', required: isRequired(param), schema, ...style };
}

function bodySchema(entries: [string, Param<unknown, boolean>][]): JsonSchema {
  const required = entries.filter(([, param]) => isRequired(param)).map(([name]) => name);
  return { type: 'object', properties: Object.fromEntries(entries.map(([name, param]) => [name, paramSchema(param)])), ...(required.length ? { required } : {}) };
}

/** Whether a caller may come without a token: the framework asks none ('anonymous', 'by_ability'). */
function signInOptional(r: Route): boolean {
  return r.auth === 'anonymous' || r.auth === 'by_ability';
}

/** What the route requires, in words (the operation's description). */
function describe(r: Route): string {
  const who =
    r.auth === 'admin'
      ? 'Administrators only.'
      : r.auth === 'user'
        ? 'Signed-in users only.'
        : r.ability
          ? 'Signed in or not, as the ability allows.'
          : 'Anyone, signed in or not.';
  const lines = [who];
  if (r.load) lines.push(`Answers 404 when the ${SUBJECT[r.load]} named by \`id\` does not exist or is not visible.`);
  if (r.item) lines.push(`Answers 404 when the ${SUBJECT[r.item]} named in the path does not exist in it.`);
  if (r.ability)
    lines.push(`Needs \`${r.ability}\` on the ${r.item ? SUBJECT[r.item] : r.load ? SUBJECT[r.load] : 'subject'}${r.denied === 401 ? ' (else 401, signed in or not)' : ''}.`);
  if (r.rules?.atLeastOneOf) lines.push(`At least one of ${r.rules.atLeastOneOf.map((n) => `\`${n}\``).join(', ')}.`);
  for (const group of r.rules?.mutuallyExclusive ?? []) lines.push(`At most one of ${group.map((n) => `\`${n}\``).join(', ')}.`);
  return lines.join(' ');
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function responses(r: Route, body: JsonSchema | undefined, paginated: boolean): JsonSchema {
  const status = statusOf(r);
  const success: JsonSchema = { description: status === 204 ? 'Done; no body.' : 'Success.' };
  if (body && status !== 204) success.content = { 'application/json': { schema: body } };
  if (paginated) success.headers = Object.fromEntries(PAGE_HEADERS.map((h) => [h, ref('headers', h)]));
  const out: JsonSchema = { [String(status)]: success };
  if (r.params && Object.keys(r.params).length) out['400'] = ref('responses', 'BadRequest');
  if (!signInOptional(r) || r.ability) out['401'] = ref('responses', 'Unauthorized');
  if (r.auth === 'admin' || (r.ability && r.denied !== 401)) out['403'] = ref('responses', 'Forbidden');
  if (r.load) out['404'] = ref('responses', 'NotFound');
  return out;
}

export const PAGE_HEADERS = ['X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Link'];

const PAGE_PARAMS: [string, JsonSchema][] = [
  ['page', { type: 'integer', minimum: 1, default: 1 }],
  ['per_page', { type: 'integer', minimum: 1, maximum: 100, default: 20 }],
];

/** `GET /projects/{id}/labels` → `getProjectsIdLabels`. */
function operationId(method: string, template: string): string {
  const words = template.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** The OpenAPI operation of `r` at `path`; `body` is the success body's schema, if any. */
export function operationOf(r: Route, family: string, path: OpenApiPath, body: JsonSchema | undefined): JsonSchema {
  const inPath = new Set(path.params.map((p) => p.name));
  const declared = Object.entries(r.params ?? {}).filter(([name]) => !inPath.has(name));
  const inBody = (r.method === 'POST' || r.method === 'PUT') && takesBody(r);
  const parameters = pathParameters(r, path);
  if (!inBody) parameters.push(...declared.map(([name, param]) => queryParameter(name, param)));
  const paginated = r.method === 'GET' && !!r.response?.list;
  if (paginated) {
    for (const [name, schema] of PAGE_PARAMS) if (!r.params?.[name]) parameters.push({ name, in: 'query', required: false, schema });
  }
  const op: JsonSchema = {
    tags: [family],
    summary: r.summary,
    description: describe(r),
    operationId: operationId(r.method, path.template),
    security: signInOptional(r) ? [...SIGNED_IN, {}] : SIGNED_IN,
  };
  if (parameters.length) op.parameters = parameters;
  if (inBody && declared.length) {
    const schema = bodySchema(declared);
    op.requestBody = {
      required: Array.isArray(schema.required),
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  op.responses = responses(r, body && r.response?.list ? { type: 'array', items: body } : body, paginated);
  return op;
}
