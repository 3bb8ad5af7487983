// What the fuzz test (test/api/fuzz.test.ts) is made of: a seeded random source, the
// operations of the served OpenAPI document (every mounted route, with the parameters it
// declares and their types), valid values of those types, path templates filled in, and the
// hostile values, bodies and encodings it sends.
import zlib from 'node:zlib';
import type { Deps } from '../../src/deps.js';
import { apiRouteList, apiRouter } from '../../src/app.js';

/** mulberry32: small, fast and the same sequence for the same seed on every machine. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export interface Route {
  method: string;
  path: string;
}

/** Every mounted API route (method and path pattern), from the app's own router. */
export function mountedRoutes(deps: Deps): Route[] {
  return apiRouteList(apiRouter(deps));
}

type JsonSchema = Record<string, any>;

/** A declared parameter of an operation and its value's JSON Schema. */
export interface Declared {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** One operation of the OpenAPI document: method, path template (relative to /api/v4) and parameters. */
export interface Operation {
  method: string;
  /** `/projects/{id}/labels/{label_id}` */
  template: string;
  pathParams: string[];
  query: Declared[];
  /** The JSON body's properties; empty when the operation takes no body. */
  body: Declared[];
}

const METHODS = ['get', 'post', 'put', 'delete'];

/** Every operation of an OpenAPI document (GET /api/v4/openapi.json), in the document's order. */
export function operationsOf(doc: { paths: Record<string, Record<string, JsonSchema>> }): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = (op.parameters ?? []) as { name: string; in: string; required?: boolean; schema: JsonSchema }[];
      const schema = op.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
      const required = new Set<string>(schema?.required ?? []);
      out.push({
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((x) => x.in === 'path').map((x) => x.name),
        query: params.filter((x) => x.in === 'query').map((x) => ({ name: x.name, schema: x.schema, required: x.required === true })),
        body: Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>).map(([name, s]) => ({ name, schema: s, required: required.has(name) })),
      });
    }
  }
  return out;
}

/** The template with each `{name}` replaced by `value(name)` (already URL-encoded). */
export function fillTemplate(template: string, value: (name: string) => string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
}

/** A valid value of a parameter's schema: its default, its first allowed value, or one of its type. */
export function valueOfSchema(name: string, schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'array') return schema.items?.enum ? [schema.items.enum[0]] : [];
  if (type === 'object') return {};
  if (schema.format === 'date') return '2030-01-01';
  if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
  return `fuzz-${name}`;
}

/** Path segment values no client should send (URL-encoded). */
export const HOSTILE_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '99999999999999999999',
  '1e400',
  'abc',
  '%00',
  'a%00b',
  '%2e%2e%2F%2e%2e%2Fetc',
  '..',
  '%20',
  '%F0%9F%92%A9',
  '%E2%80%AE',
  'a'.repeat(300),
  '%27%22%3C',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%25',
  'x%0Ay',
  '*',
  '%5B%5D',
  '-',
];

/** Scalar values for query strings and form fields. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  '1e400',
  '-0',
  '1.5',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  'a\u0000b',
  '\u0000',
  '"',
  "'",
  '\\',
  '%',
  '_',
  '*',
  '"quoted" "phrases',
  'NEAR(a b)',
  'a AND OR NOT',
  '{title}: x',
  '\u202e\u0301',
  '💩💩💩',
  'ветка',
  'x'.repeat(5000),
  '../../etc/passwd',
  '<script>',
  '1970-01-01',
  '9999-99-99',
  '2018-02-30',
  'T',
  'asc;drop table users',
  '#upcoming',
  'None',
  'Any',
  ' \t\n',
];

/** JSON values of every wrong type. */
export function hostileJson(r: Random): unknown {
  const deep = (n: number): unknown => (n === 0 ? 'x' : r.chance(0.5) ? [deep(n - 1)] : { a: deep(n - 1) });
  if (r.chance(0.5)) return r.pick(HOSTILE_STRINGS);
  const pool: (() => unknown)[] = [
    () => null,
    () => true,
    () => false,
    () => 0,
    () => -1,
    () => 1.5,
    () => 2 ** 53 + 2,
    () => -(2 ** 63),
    () => 1e308,
    () => [],
    () => [null],
    () => [1, 'a', null, {}],
    () => ({}),
    () => ({ a: { b: null } }),
    () => deep(40),
    () => r.pick(HOSTILE_STRINGS),
    () => [r.pick(HOSTILE_STRINGS)],
    () => ({ [r.pick(HOSTILE_STRINGS)]: r.pick(HOSTILE_STRINGS) }),
  ];
  return r.pick(pool)();
}

/** A value no coercion accepts (string, integer, boolean, date, array, hash): a hash of hashes. */
export const UNCOERCIBLE = { a: { b: '1' } };

/** Parameter names the API reads, from query strings and bodies. */
export const PARAM_NAMES = [
  'access_level',
  'actions',
  'admin',
  'all',
  'archived',
  'assignee_id',
  'assignee_ids',
  'author_email',
  'author_id',
  'author_name',
  'before',
  'after',
  'bio',
  'body',
  'branch',
  'can_create_group',
  'color',
  'commit_message',
  'confidential',
  'content',
  'created_after',
  'created_before',
  'created_at',
  'custom_attributes',
  'default_branch',
  'description',
  'developers_can_merge',
  'developers_can_push',
  'discussion_locked',
  'discussion_to_resolve',
  'due_date',
  'duration',
  'email',
  'encoding',
  'expires_at',
  'external',
  'file_path',
  'format',
  'from',
  'group_access',
  'group_id',
  'hard_delete',
  'iids',
  'import_url',
  'labels',
  'last_commit_id',
  'membership',
  'merge_access_level',
  'merge_commit_message',
  'merge_request_to_resolve_discussions_of',
  'merge_when_pipeline_succeeds',
  'milestone',
  'milestone_id',
  'my_reaction_emoji',
  'name',
  'namespace_id',
  'new_name',
  'order_by',
  'owned',
  'page',
  'parent_id',
  'password',
  'path',
  'per_page',
  'priority',
  'projects_limit',
  'push_access_level',
  'recursive',
  'ref',
  'ref_name',
  'remove_source_branch',
  'scope',
  'scopes',
  'search',
  'sha',
  'should_remove_source_branch',
  'simple',
  'since',
  'skip_confirmation',
  'sort',
  'source_branch',
  'squash',
  'start_branch',
  'starred',
  'state',
  'state_event',
  'statistics',
  'stats',
  'straight',
  'sudo',
  'tag_list',
  'target_branch',
  'target_project_id',
  'target_type',
  'title',
  'to',
  'until',
  'updated_after',
  'updated_before',
  'user_id',
  'username',
  'value',
  'visibility',
  'with_custom_attributes',
  'with_stats',
  'action',
  'note',
  'key',
  'start_date',
  'weight',
];

/** A request body as bytes with its headers: the malformed and the merely unusual. */
export interface RawBody {
  label: string;
  headers: Record<string, string>;
  body: Buffer;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

function multipart(boundary: string, parts: string[]): Buffer {
  return Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`);
}

/** Bodies broken in their syntax, encoding or framing, and a few well-formed oddities. */
export function rawBodies(valid: Record<string, unknown>): RawBody[] {
  const json = JSON.stringify(valid);
  const form = new URLSearchParams(Object.entries(valid).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  const deepArray = '['.repeat(100_000) + ']'.repeat(100_000);
  const B = 'fuzzboundary';
  return [
    { label: 'truncated JSON', headers: JSON_TYPE, body: Buffer.from(json.slice(0, json.length / 2)) },
    { label: 'JSON array', headers: JSON_TYPE, body: Buffer.from('[1,2,3]') },
    { label: 'JSON string', headers: JSON_TYPE, body: Buffer.from('"text"') },
    { label: 'JSON null', headers: JSON_TYPE, body: Buffer.from('null') },
    { label: 'JSON nested 100k deep', headers: JSON_TYPE, body: Buffer.from(deepArray) },
    { label: 'JSON with __proto__', headers: JSON_TYPE, body: Buffer.from('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}') },
    { label: 'JSON latin1 charset', headers: { 'Content-Type': 'application/json; charset=latin1' }, body: Buffer.from(json) },
    { label: 'JSON unknown charset', headers: { 'Content-Type': 'application/json; charset=x-unknown' }, body: Buffer.from(json) },
    { label: 'JSON invalid UTF-8', headers: JSON_TYPE, body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
    { label: 'gzip, not gzipped', headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, body: Buffer.from(json) },
    { label: 'deflate, not deflated', headers: { ...JSON_TYPE, 'Content-Encoding': 'deflate' }, body: Buffer.from(json) },
    { label: 'br, not compressed', headers: { ...JSON_TYPE, 'Content-Encoding': 'br' }, body: Buffer.from(json) },
    { label: 'gzip truncated', headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, body: zlib.gzipSync(json).subarray(0, 12) },
    { label: 'gzip of JSON', headers: { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, body: zlib.gzipSync(json) },
    { label: 'unknown encoding', headers: { ...JSON_TYPE, 'Content-Encoding': 'zstd' }, body: Buffer.from(json) },
    { label: 'form gzip broken', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' }, body: Buffer.from(form) },
    {
      label: 'form brackets',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(`${form}&a[=1&b]]=2&c[][][]=3&d[x][y][z][w][v][u]=4&title[]=x&name[k]=v&%00=%00`),
    },
    { label: 'form bad percent', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(`${form}&x=%E0%A4%A&y=%`) },
    { label: 'multipart without boundary', headers: { 'Content-Type': 'multipart/form-data' }, body: Buffer.from('x') },
    {
      label: 'multipart truncated',
      headers: { 'Content-Type': `multipart/form-data; boundary=${B}` },
      body: Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhal`),
    },
    { label: 'multipart garbage', headers: { 'Content-Type': `multipart/form-data; boundary=${B}` }, body: Buffer.from('\u0000\u0001garbage\r\n\r\n--') },
    { label: 'multipart gzip broken', headers: { 'Content-Type': `multipart/form-data; boundary=${B}`, 'Content-Encoding': 'gzip' }, body: Buffer.from('--x') },
    {
      label: 'multipart fields and a file',
      headers: { 'Content-Type': `multipart/form-data; boundary=${B}` },
      body: multipart(B, [
        ...Object.entries(valid).map(([k, v]) => `Content-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}`),
        'Content-Disposition: form-data; name="file"; filename="../../x.txt"\r\nContent-Type: text/plain\r\n\r\nhello',
        'Content-Disposition: form-data; name="labels[]"\r\n\r\na',
      ]),
    },
    {
      label: 'multipart bad part headers',
      headers: { 'Content-Type': `multipart/form-data; boundary=${B}` },
      body: multipart(B, ['Content-Disposition: form-data\r\n\r\nno name', 'X: y\r\n\r\nno disposition']),
    },
    { label: 'text/plain', headers: { 'Content-Type': 'text/plain' }, body: Buffer.from(json) },
    { label: 'xml', headers: { 'Content-Type': 'application/xml' }, body: Buffer.from('<a>1</a>') },
    { label: 'octet-stream', headers: { 'Content-Type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]) },
    { label: 'JSON sent as form', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from(json) },
    { label: 'no Content-Type', headers: {}, body: Buffer.from(json) },
  ];
}
