// GET /api/v4/openapi.json: the document generated from the route tables is a valid OpenAPI
// 3.1 document (checked by a real validator, and every schema compiled as JSON Schema
// 2020-12), it lists exactly the routes mount() registers, each documented operation is
// served, and its parameters, security and response schemas say what the routes do; the
// response schemas accept real answers of the server.
import { expect } from 'chai';
import Router from '@koa/router';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { bootServer, type TestServer } from '../helpers/server.js';
import { schemaRoot } from '../helpers/schema.js';
import { createProject, commitFiles, created } from '../helpers/projects.js';
import { mount } from '../../src/api/core/mount.js';
import { route } from '../../src/api/core/route.js';
import { ROUTE_TABLES } from '../../src/api/core/route_tables.js';
import { openApiDocument } from '../../src/api/core/openapi/document.js';
import { openApiPaths } from '../../src/api/core/openapi/paths.js';
import type { Deps } from '../../src/deps.js';

type Doc = Record<string, any>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) with its formats checked (uri, date-time, ...). */
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  return ajv;
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** "GET /projects/{id}/labels" for every operation of the document. */
function documented(doc: Doc): string[] {
  return Object.entries(doc.paths as Record<string, Doc>).flatMap(([p, item]) =>
    Object.keys(item)
      .filter((k) => METHODS.includes(k))
      .map((m) => `${m.toUpperCase()} ${p}`),
  );
}

/** "GET /projects/{id}/labels" for every route mount() registers from the tables (HEAD aside). */
function mounted(): string[] {
  const router = new Router();
  for (const table of ROUTE_TABLES) mount(router, {} as Deps, table.routes);
  return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').flatMap((m) => openApiPaths(String(layer.path)).map((p) => `${m} ${p.template}`)));
}

async function expectValid(doc: Doc): Promise<void> {
  const validator = new Validator();
  const res = await validator.validate(structuredClone(doc));
  expect(res.valid, JSON.stringify(res.errors, null, 1)).to.equal(true);
  expect(validator.version).to.equal('3.1');
  expect(() => validator.resolveRefs()).not.to.throw();
  // Every schema is valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1) and every $ref resolves.
  const ajv = newAjv();
  ajv.addSchema({ $id: 'wharf:openapi', components: doc.components });
  for (const name of Object.keys(doc.components.schemas)) ajv.compile({ $ref: `wharf:openapi#/components/schemas/${name}` });
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]*"/g) ?? [];
  for (const r of new Set(refs)) {
    const pointer = JSON.parse(`{${r}}`).$ref as string;
    expect(pointer).to.match(/^#\//);
    const target = pointer
      .slice(2)
      .split('/')
      .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    expect(target, pointer).to.not.equal(undefined);
  }
  const ids = Object.values(doc.paths as Record<string, Doc>).flatMap((item) => Object.values(item).map((op: any) => op.operationId));
  expect(new Set(ids).size, 'operationIds are unique').to.equal(ids.length);
}

describe('OpenAPI document', function () {
  let s: TestServer;
  let doc: Doc;
  before(async () => {
    // No WHARF_SCHEMAS: the schemas kept in the repository are read, as in a user's clone.
    s = await bootServer();
    expect(s.deps.config.schemasDir).to.equal(schemaRoot());
    const r = await s.get('/openapi.json', { token: null });
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('application/json');
    doc = r.body;
  });
  after(() => s.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.servers).to.deep.equal([{ url: '/api/v4' }]);
    await expectValid(doc);
  });

  it('lists every mounted route and nothing else', () => {
    const routes = mounted();
    expect(new Set(routes).size, 'no route is declared twice').to.equal(routes.length);
    const ops = documented(doc);
    expect([...ops].sort()).to.deep.equal([...routes].sort());
    expect(ops).to.include.members(['GET /projects/{id}/labels', 'POST /projects/{id}/repository/files/{file_path}', 'GET /openapi.json', 'GET /docs']);
    expect(doc.tags.map((t: Doc) => t.name)).to.deep.equal(ROUTE_TABLES.map((t) => t.family));
  });

  it('documents only routes the server answers', async () => {
    // Anonymous requests with placeholder path values: each reaches its route (401, 404 of its
    // subject, 400 of its parameters, ...), never the router's own 404 for an unknown path.
    for (const op of documented(doc)) {
      const [method, template] = op.split(' ');
      const r = await s.request(method, `/api/v4${template.replace(/\{[^}]+\}/g, '1')}`, { token: null });
      expect({ op, status: r.status, body: r.body }, op).to.not.deep.equal({ op, status: 404, body: { error: '404 Not Found' } });
    }
  });

  it('says who may call each route', () => {
    const tokens = [{ private_token: [] }, { private_token_query: [] }, { bearer: [] }];
    const labels = doc.paths['/projects/{id}/labels'].post;
    expect(labels.security).to.deep.equal(tokens);
    expect(labels.description).to.contain('Signed-in users only').and.contain('`admin_label`');
    expect(Object.keys(labels.responses).sort()).to.deep.equal(['201', '400', '401', '403', '404']);
    expect(labels.responses['404']).to.deep.equal({ $ref: '#/components/responses/NotFound' });
    // Anonymous routes: a token is optional.
    expect(doc.paths['/projects/{id}/repository/files/{file_path}'].post.security).to.deep.equal([...tokens, {}]);
    expect(doc.paths['/openapi.json'].get.security).to.deep.equal([...tokens, {}]);
    expect(doc.components.securitySchemes.private_token).to.deep.equal({ type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal access token.' });
  });

  it('types each parameter: path, query, body; required, enums, defaults', () => {
    const list = doc.paths['/projects/{id}/milestones'].get;
    const byName = Object.fromEntries(list.parameters.map((p: Doc) => [p.name, p]));
    expect(byName.id).to.deep.include({ in: 'path', required: true, schema: { type: 'string' } });
    expect(byName.state).to.deep.equal({ name: 'state', in: 'query', required: false, schema: { type: 'string', enum: ['active', 'closed', 'all'], default: 'all' } });
    expect(byName.iids.schema).to.deep.equal({ type: 'array', items: { type: 'integer' } });
    expect(byName.per_page.schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(list.responses['200'].headers['X-Total']).to.deep.equal({ $ref: '#/components/headers/X-Total' });

    // A POST's parameters are its body, as JSON or a form; path parameters stay in the path.
    const create = doc.paths['/projects/{id}/repository/files/{file_path}'].post;
    expect(create.parameters.map((p: Doc) => `${p.in}:${p.name}`)).to.deep.equal(['path:id', 'path:file_path']);
    const body = create.requestBody.content['application/json'].schema;
    expect(create.requestBody.content['application/x-www-form-urlencoded'].schema).to.deep.equal(body);
    expect(create.requestBody.required).to.equal(true);
    expect(body.required).to.include.members(['branch', 'commit_message', 'content']);
    expect(body.properties.encoding).to.deep.equal({ type: 'string', enum: ['text', 'base64'] });
    const commits = doc.paths['/projects/{id}/repository/commits'].post.requestBody.content['application/json'].schema;
    expect(commits.properties.stats).to.deep.equal({ type: 'boolean', default: false });
    expect(commits.required).to.not.include('stats');

    // DELETE takes its parameters from the query.
    const del = doc.paths['/projects/{id}/labels'].delete;
    expect(del.requestBody).to.equal(undefined);
    expect(del.parameters.find((p: Doc) => p.name === 'name')).to.deep.equal({ name: 'name', in: 'query', required: true, schema: { type: 'string' } });
    expect(del.responses['204']).to.deep.equal({ description: 'Done; no body.' });

    // A path parameter declared in the schema keeps its type.
    const milestone = doc.paths['/projects/{id}/milestones/{milestone_id}'].get;
    expect(milestone.parameters.find((p: Doc) => p.name === 'milestone_id').schema).to.deep.equal({ type: 'integer' });
  });

  it("describes bodies with GitLab 10.8's schemas, converted", () => {
    const branches = doc.paths['/projects/{id}/repository/branches'].get.responses['200'].content['application/json'].schema;
    expect(branches).to.deep.equal({ type: 'array', items: { $ref: '#/components/schemas/Branch' } });
    const branch = doc.components.schemas.Branch;
    expect(branch.required).to.include('developers_can_push');
    expect(branch.properties.commit).to.deep.equal({ $ref: '#/components/schemas/Commit' });
    expect(doc.components.schemas.Commit.properties.created_at).to.deep.equal({ type: ['string', 'null'] });
    // milestones.json is a list file: a milestone is its items.
    expect(doc.components.schemas.Milestone.properties.title).to.deep.equal({ type: 'string' });
    // Wharf's own where GitLab committed none.
    expect(doc.components.schemas.Label.required).to.include('open_merge_requests_count');
  });

  it("accepts the server's real answers", async () => {
    const ajv = newAjv();
    ajv.addSchema({ $id: 'wharf:openapi', components: doc.components });
    const check = (body: unknown, schema: string, list = false) => {
      const ref = { $ref: `wharf:openapi#/components/schemas/${schema}` };
      const validate = ajv.compile(list ? { type: 'array', items: ref } : ref);
      expect(validate(body), `${schema}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    };
    const project = await createProject(s, s.running.deps.config.rootToken!, { name: 'documented' });
    await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hi' }], { token: s.running.deps.config.rootToken! });
    check(created(await s.post(`/projects/${project.id}/labels`, { json: { name: 'bug', color: '#FF0000' } })), 'Label');
    check((await s.get(`/projects/${project.id}/labels`)).body, 'Label', true);
    check(created(await s.post(`/projects/${project.id}/repository/files/docs%2Fa.md`, { json: { branch: 'master', content: 'a', commit_message: 'a' } })), 'FileWrite');
    check((await s.get(`/projects/${project.id}/repository/branches`)).body, 'Branch', true);
    check(created(await s.post(`/projects/${project.id}/protected_branches`, { json: { name: 'release-*' } })), 'ProtectedBranch');
    check(created(await s.post(`/projects/${project.id}/milestones`, { json: { title: 'v1' } })), 'Milestone');
    // The schemas can fail: a label without its counts is refused.
    const validate = ajv.compile({ $ref: 'wharf:openapi#/components/schemas/Label' });
    expect(validate({ id: 1, name: 'x' })).to.equal(false);
  });
});

describe("OpenAPI document without GitLab's schemas", () => {
  it('is still valid, describing those bodies in words', async () => {
    const doc = openApiDocument(ROUTE_TABLES, { version: 'test', schemasDir: undefined }) as Doc;
    await expectValid(doc);
    expect(doc.components.schemas.Branch).to.deep.equal({ type: 'object', description: "GitLab's Branch entity." });
    expect(doc.components.schemas.Label.required).to.include('subscribed');
  });
});

describe('OpenAPI response schemas', () => {
  const get = (path: string, schema: string, list = false) => route({ method: 'GET', path, auth: 'user', summary: path, response: { schema, list }, handler: () => null });

  it('names a GitLab file once, other names refer to it; scalars inline; unknown names in words', async () => {
    const routes = [get('/a', 'Issue'), get('/b', 'IssueBasic', true), get('/c', 'boolean'), get('/d', 'Nope'), get('/e', 'Note', true), get('/f', 'UserAdmin')];
    const doc = openApiDocument([{ family: 'x', routes }], { version: 't', schemasDir: schemaRoot() }) as Doc;
    await expectValid(doc);
    const body = (p: string) => doc.paths[p].get.responses['200'].content['application/json'].schema;
    expect(body('/a')).to.deep.equal({ $ref: '#/components/schemas/Issue' });
    expect(body('/b')).to.deep.equal({ type: 'array', items: { $ref: '#/components/schemas/IssueBasic' } });
    expect(doc.components.schemas.IssueBasic).to.deep.equal({ $ref: '#/components/schemas/Issue' });
    expect(doc.components.schemas.Issue.properties.iid).to.deep.equal({ type: 'integer' });
    expect(body('/c')).to.deep.equal({ type: 'boolean' });
    expect(doc.components.schemas.Nope).to.deep.equal({ type: 'object', description: "GitLab's Nope entity." });
    expect(doc.components.schemas.Note.properties.body).to.deep.equal({ type: 'string' });
    // A property named "type" is a property, not a keyword.
    expect(doc.components.schemas.Note.properties.type).to.deep.equal({ type: ['string', 'null'] });
    // user/admin.json says "properties are full.json", a file GitLab never committed: type and required stay.
    const admin = doc.components.schemas.UserAdmin;
    expect(admin.type).to.equal('object');
    expect(admin.required).to.include('is_admin');
    expect(admin.properties).to.equal(undefined);
  });
});

describe('OpenAPI paths', () => {
  it('writes koa paths as OpenAPI templates, optional groups both ways', () => {
    expect(openApiPaths('/projects/:id/labels/:label_id')).to.deep.equal([
      {
        template: '/projects/{id}/labels/{label_id}',
        params: [
          { name: 'id', wildcard: false },
          { name: 'label_id', wildcard: false },
        ],
      },
    ]);
    expect(openApiPaths('/projects/:id/repository/archive{.:format}').map((p) => p.template)).to.deep.equal([
      '/projects/{id}/repository/archive',
      '/projects/{id}/repository/archive.{format}',
    ]);
    expect(openApiPaths('/projects/:id/repository/commits/*sha/diff')).to.deep.equal([
      {
        template: '/projects/{id}/repository/commits/{sha}/diff',
        params: [
          { name: 'id', wildcard: false },
          { name: 'sha', wildcard: true },
        ],
      },
    ]);
  });
});
