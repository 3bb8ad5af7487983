// The OpenAPI 3.1 document of /api/v4, generated from the route tables (route_tables.ts), so
// it lists exactly the routes mount() serves and cannot drift from them: each route's
// parameters with their types, required flags, allowed values and defaults (http/params.ts),
// who may call it (a PRIVATE-TOKEN header, a private_token query parameter or a bearer token,
// optional where the framework asks for no sign-in: 'anonymous' and 'by_ability' routes), and
// its success body where the route names one (openapi/entity_schemas.ts: GitLab 10.8's own
// schemas where GitLab committed them, else Wharf's).
import type { Route } from '../route.js';
import { GITLAB_ENTITIES, SCALAR_RESPONSES, WHARF_ENTITIES } from './entity_schemas.js';
import { GitLabSchemas, type JsonSchema } from './gitlab_schemas.js';
import { operationOf, PAGE_HEADERS } from './operation.js';
import { openApiPaths } from './paths.js';

export interface RouteFamily {
  family: string;
  routes: readonly Route[];
}

export interface DocumentOptions {
  /** info.version */
  version: string;
  /** Folder of GitLab's response schemas, or undefined when they are not available. */
  schemasDir: string | undefined;
}

const errorBody = (example: unknown) => ({ content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example } } });

const SHARED_COMPONENTS = {
  securitySchemes: {
    private_token: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal access token.' },
    private_token_query: { type: 'apiKey', in: 'query', name: 'private_token', description: 'A personal access token.' },
    bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token as `Authorization: Bearer <token>`.' },
  },
  responses: {
    BadRequest: { description: 'A parameter is missing or invalid.', ...errorBody({ error: 'title is missing' }) },
    Unauthorized: { description: 'Nobody is signed in, or the token is not valid.', ...errorBody({ message: '401 Unauthorized' }) },
    Forbidden: { description: 'The user may not do this.', ...errorBody({ message: '403 Forbidden' }) },
    NotFound: { description: 'The subject does not exist or the user may not see it.', ...errorBody({ message: '404 Project Not Found' }) },
  },
  headers: Object.fromEntries(
    PAGE_HEADERS.map((h) => [h, { description: h === 'Link' ? 'prev, next, first and last pages' : `GitLab's ${h} pagination header`, schema: { type: 'string' } }]),
  ),
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'GitLab\'s error bodies: `{"message": "404 Project Not Found"}`, `{"error": "title is missing"}`, or `{"message": {"field": ["reason"]}}`.',
  properties: {
    message: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }] },
    error: { type: 'string' },
  },
};

/** Resolves `response.schema` names into components (see openapi/entity_schemas.ts). */
class ResponseSchemas {
  readonly gitlab: GitLabSchemas;
  readonly own: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };

  constructor(schemasDir: string | undefined) {
    // A file is one component, named after the first entity that is that file.
    const preferred = new Map<string, string>();
    for (const [name, s] of Object.entries(GITLAB_ENTITIES)) if (!s.items && !preferred.has(s.file)) preferred.set(s.file, name);
    this.gitlab = new GitLabSchemas(schemasDir, preferred);
  }

  schemaOf(name: string): JsonSchema {
    if (SCALAR_RESPONSES[name]) return SCALAR_RESPONSES[name];
    const source = GITLAB_ENTITIES[name];
    if (source && !source.items) {
      const ref = this.gitlab.ref(source.file);
      if (ref?.$ref === `#/components/schemas/${name}`) return ref;
      if (ref) this.own[name] ??= ref; // another name of the same file (IssueBasic is issue.json too)
    }
    if (!this.own[name]) {
      const items = source?.items ? this.gitlab.items(source.file) : undefined;
      this.own[name] = items ?? WHARF_ENTITIES[name] ?? { type: 'object', description: `GitLab's ${name} entity.` };
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  components(): Record<string, JsonSchema> {
    const all = { ...this.gitlab.components, ...this.own };
    return Object.fromEntries(
      Object.keys(all)
        .sort()
        .map((k) => [k, all[k]]),
    );
  }
}

/** The OpenAPI 3.1 document of `families`. */
export function openApiDocument(families: readonly RouteFamily[], options: DocumentOptions): JsonSchema {
  const schemas = new ResponseSchemas(options.schemasDir);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { family, routes } of families) {
    for (const r of routes) {
      const body = r.response?.schema ? schemas.schemaOf(r.response.schema) : undefined;
      for (const path of openApiPaths(r.path)) {
        const item = (paths[path.template] ??= {});
        item[r.method.toLowerCase()] = operationOf(r, family, path, body);
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wharf API v4',
      version: options.version,
      description:
        'The GitLab 10.8 REST API v4 as Wharf serves it, generated from its route table. ' +
        "Errors have GitLab's bodies; lists are paginated with `page` and `per_page` (at most 100).",
    },
    servers: [{ url: '/api/v4' }],
    tags: families.map(({ family }) => ({ name: family })),
    paths,
    components: { schemas: schemas.components(), ...SHARED_COMPONENTS },
  };
}
