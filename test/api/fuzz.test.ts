// Fuzzing every operation of the served OpenAPI document (GET /api/v4/openapi.json, generated
// from the route tables: every mounted route): a seeded (deterministic) stream of requests
// with valid and hostile path parameters, each declared parameter given malformed values in
// the query string or a JSON body (null, NUL characters, nesting, huge numbers, blanks), broken
// Content-Encodings, broken multipart and wrong Content-Types, as root, as a plain user and
// anonymously. The path parameters name real objects of every family (test/helpers/fuzz_world.ts)
// and the other parameters carry valid values, so each poison reaches the endpoint's own work.
// GitLab answers a client's mistake with a 4xx; so must Wharf: any 5xx fails the test, listing
// every operation and input.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import {
  fillTemplate,
  HOSTILE_SEGMENTS,
  HOSTILE_STRINGS,
  hostileJson,
  mountedRoutes,
  operationsOf,
  PARAM_NAMES,
  Random,
  rawBodies,
  UNCOERCIBLE,
  valueOfSchema,
  type Declared,
  type Operation,
} from '../helpers/fuzz.js';
import { makeFuzzWorld, PNG, validValue, type FuzzWorld } from '../helpers/fuzz_world.js';
import { openApiPaths } from '../../src/api/core/openapi/paths.js';

/** Fixed, so every run sends the same requests; FUZZ_SEED=<n> explores other sequences by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_2026);
/** Requests per operation with names it does not declare (it may read them all the same). */
const UNDECLARED_PER_OPERATION = 3;
/**
 * The poisons each declared parameter gets: in the query string (GET), in a JSON body (the
 * others: null, a NUL character, a nested array, a huge number, a nested object, a blank, a
 * string longer than any column), in a multipart field.
 */
const QUERY_POISONS = ['abc\u0000def', '99999999999999999999', '"x" NEAR({title}: *)'];
const JSON_POISONS: unknown[] = [null, 'abc\u0000def', [{ a: 1 }], 99999999999999999999, { a: { b: null } }, '', 'x'.repeat(3000)];
const MULTIPART_POISONS = ['abc\u0000def', '', 'x'.repeat(3000)];
/** A request still unanswered after this long counts as a failure (the server hangs on it). */
const REQUEST_TIMEOUT_MS = 10_000;
const HOSTILE_HEADERS: [string, string][] = [
  ['If-Unmodified-Since', 'yesterday'],
  ['If-Unmodified-Since', 'Tue, 99 Foo 99999 99:99:99 GMT'],
  ['If-Unmodified-Since', '0'],
  ['If-None-Match', '"' + 'x'.repeat(2000)],
  ['If-Modified-Since', 'garbage'],
  ['Sudo', '99999999999999999999'],
  ['Sudo', '%00'],
  ['Sudo', 'ветка'],
  ['Authorization', 'Bearer'],
  ['Authorization', 'Bearer ' + 'x'.repeat(3000)],
  ['Authorization', 'Basic !!!'],
  ['Private-Token', 'ветка'],
  ['Accept', 'application/xml'],
  ['Accept-Encoding', 'br;q=x'],
  ['Range', 'bytes=9999999999-1'],
  ['X-Request-Id', 'x'.repeat(5000)],
];

/** Valid values by parameter name; any other declared parameter that is required gets one of its type. */
const BASELINE: Record<string, unknown> = {
  title: 'fuzzed title',
  description: 'text',
  name: 'fuzzname',
  path: 'fuzzpath',
  body: 'a body',
  content: 'content\n',
  branch: 'fuzz-branch',
  start_branch: 'master',
  ref: 'master',
  commit_message: 'fuzz',
  email: 'fuzz@example.com',
  username: 'fuzzuser',
  password: 'password123',
  duration: '1h',
  value: 'v',
  access_level: 30,
  source_branch: 'feature',
  target_branch: 'master',
  color: '#00ff00',
  from: 'master',
  to: 'feature',
  group_access: 30,
  scopes: ['api'],
  note: 'a comment',
  actions: [{ action: 'create', file_path: 'fuzz.txt', content: 'x' }],
  labels: 'bug',
  state_event: 'close',
  file_name: 'fuzz.sh',
  code: 'echo\n',
  visibility: 'public',
  tag_name: 'fuzz-tag',
  domain: 'fuzz.example.com',
  state: 'success',
  link_url: 'https://badge.example.com/l',
  image_url: 'https://badge.example.com/i.svg',
  url: 'http://127.0.0.1:9/fuzz-hook',
};
/** Values that must differ from one request to the next for the endpoint to do its work (a second "fuzzname" is taken). */
const UNIQUE: Record<string, (n: number) => string> = {
  name: (n) => `fuzzname${n}`,
  path: (n) => `fuzzpath${n}`,
  username: (n) => `fuzzuser${n}`,
  email: (n) => `fuzz${n}@example.com`,
  title: (n) => `fuzz title ${n}`,
  branch: (n) => `fuzz-branch-${n}`,
  tag_name: (n) => `fuzz-tag-${n}`,
  domain: (n) => `fuzz${n}.example.com`,
};

interface Failure {
  request: string;
  status: number;
  body: string;
}

type Init = { headers?: Record<string, string>; body?: Buffer | string | FormData; token?: string | null };

describe('fuzz: every operation of openapi.json answers malformed input with a 4xx, never a 5xx', function () {
  this.timeout(300_000);
  let s: TestServer;
  let world: FuzzWorld;
  let operations: Operation[];
  let tmp: string;
  let savedTmp: string | undefined;

  before(async () => {
    // Uploads go to os.tmpdir(): a folder of this suite's own shows whether any is left behind.
    savedTmp = process.env.TMPDIR;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-fuzz-'));
    process.env.TMPDIR = tmp;
    s = await bootServer({ WHARF_MAX_BODY_BYTES: '200000', WHARF_PAGES_HOST: 'pages.example.io' });
    world = await makeFuzzWorld(s);
    const doc = await s.get('/openapi.json', { token: null });
    expect(doc.status).to.equal(200);
    operations = operationsOf(doc.body);
  });
  after(async () => {
    await s?.close();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Operations that change what later requests rely on (delete, archive, block) go last, the deepest paths first. */
  function destructive(op: Operation): boolean {
    return op.method === 'DELETE' || op.template.endsWith('/archive') || op.template.endsWith('/block');
  }

  it('lists every mounted route', () => {
    const listed = new Set(operations.map((op) => `${op.method} ${op.template}`));
    const missing = mountedRoutes(s.deps)
      .map((r) => `${r.method} ${openApiPaths(r.path.slice('/api/v4'.length))[0].template}`)
      .filter((key) => !listed.has(key));
    expect(missing).to.deep.equal([]);
    expect(operations.length).to.be.greaterThan(300);
  });

  it('answers no request with a 5xx', async () => {
    const r = new Random(SEED);
    const depth = (op: Operation) => op.template.split('/').length;
    const ordered = [...operations.filter((x) => !destructive(x)), ...operations.filter(destructive).sort((a, b) => depth(b) - depth(a))];
    const failures: Failure[] = [];
    let sent = 0;
    let serial = 0;

    const send = async (op: Operation, label: string, url: string, init: Init) => {
      const headers: Record<string, string> = { ...init.headers };
      const token = init.token === undefined ? ROOT_TOKEN : init.token;
      if (token) headers['PRIVATE-TOKEN'] = token;
      sent += 1;
      let status: number;
      let text: string;
      try {
        const body = op.method === 'GET' || init.body === undefined ? undefined : init.body instanceof FormData ? init.body : new Uint8Array(Buffer.from(init.body));
        const res = await fetch(`${s.url}/api/v4${url}`, { method: op.method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), body });
        status = res.status;
        text = await res.text();
      } catch (err) {
        status = 599;
        text = `connection failed: ${(err as Error).message}`;
      }
      if (status >= 500) failures.push({ request: `${op.method} ${op.template} [${label}] ${url.slice(0, 200)}`, status, body: text.slice(0, 200) });
    };

    const pathOf = (op: Operation, hostile: string | null) => {
      const target = hostile !== null && op.pathParams.length ? r.pick(op.pathParams) : null;
      return fillTemplate(op.template, (name) => (name === target ? hostile! : validValue(world.valid, op.template, name)));
    };

    /** Values for the parameters that need one of their own on this operation. */
    const overrides = (op: Operation, n: number): Record<string, unknown> => {
      const t = op.template;
      if (t.includes('/variables')) return { key: `FUZZ_${n}` };
      // A key is added once (its first valid request), then "has already been taken".
      if (t === '/user/keys') return { title: `fuzz key ${n}`, key: world.freshKeys[0] };
      if (t.endsWith('/keys')) return { title: `fuzz key ${n}`, key: world.freshKeys[1] };
      if (t.endsWith('/deploy_keys')) return { title: `fuzz key ${n}`, key: world.freshKeys[2] };
      if (t === '/user/gpg_keys') return { key: world.freshGpgKeys[0] };
      if (t.endsWith('/gpg_keys')) return { key: world.freshGpgKeys[1] };
      if (t.endsWith('/award_emoji')) return { name: 'smile' };
      if (t.endsWith('/comments')) return { path: undefined };
      return {};
    };

    /** A valid value for each declared parameter that has a known one, or that is required. */
    const baselineOf = (op: Operation, declared: Declared[]): Record<string, unknown> => {
      const n = ++serial;
      const special = overrides(op, n);
      const out: Record<string, unknown> = {};
      for (const d of declared) {
        if (op.pathParams.includes(d.name)) continue;
        if (d.name in special) out[d.name] = special[d.name];
        else if (UNIQUE[d.name] && d.name in BASELINE) out[d.name] = UNIQUE[d.name](n);
        else if (d.name === 'group_id') out[d.name] = world.groupId;
        else if (d.name in BASELINE) out[d.name] = BASELINE[d.name];
        else if (d.required) out[d.name] = valueOfSchema(d.name, d.schema);
      }
      return out;
    };

    /** A query string setting each name to a value, in one of Rack's shapes (values cut to keep the URL short). */
    const query = (values: Record<string, unknown>, plain: Record<string, unknown> = {}): string => {
      const shaped = Object.entries(values).map(([name, raw]) => {
        const value = encodeURIComponent(String(raw).slice(0, 500));
        const shape = r.int(4);
        if (shape === 0) return `${name}=${value}`;
        if (shape === 1) return `${name}[]=${value}&${name}[]=${value}`;
        if (shape === 2) return `${name}[a][b]=${value}`;
        return `${name}=${value}&${name}=${value}`;
      });
      const rest = Object.entries(plain)
        .filter(([name]) => !(name in values))
        .map(([name, v]) => `${name}=${encodeURIComponent(Array.isArray(v) ? String(v[0]) : String(v))}`);
      return [...rest, ...shaped].join('&');
    };

    /** The files an operation needs in a multipart body to do its work: an export to import, an avatar. */
    const filesOf = (op: Operation): Record<string, { data: Buffer; name: string; type: string }> => {
      const files: Record<string, { data: Buffer; name: string; type: string }> = {};
      if (op.template === '/projects/import') files.file = { data: world.exportArchive, name: 'export.tar.gz', type: 'application/gzip' };
      for (const d of op.body) if (d.schema.format === 'binary') files[d.name] = { data: PNG, name: 'a.png', type: 'image/png' };
      return files;
    };

    const multipart = (fields: Record<string, unknown>, files: ReturnType<typeof filesOf>): FormData => {
      const form = new FormData();
      for (const [name, v] of Object.entries(fields)) {
        if (name in files) continue;
        if (Array.isArray(v)) for (const item of v) form.append(`${name}[]`, typeof item === 'string' ? item : JSON.stringify(item));
        else if (v !== null && typeof v === 'object') for (const [k, inner] of Object.entries(v)) form.append(`${name}[${k}]`, String(inner));
        else form.append(name, String(v));
      }
      for (const [name, f] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
      return form;
    };

    const json = (body: Record<string, unknown>): Init => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    for (const op of ordered) {
      const hasBody = op.method !== 'GET';
      const declared = [...op.query, ...op.body].filter((d) => !op.pathParams.includes(d.name));
      const names = [...new Set(declared.map((d) => d.name))];
      const requiredQuery = () =>
        baselineOf(
          op,
          op.query.filter((d) => d.required),
        );

      // Every declared parameter uncoercible at once, then valid values only (the endpoint's real work).
      if (names.length) {
        const everything = Object.fromEntries(names.map((n) => [n, UNCOERCIBLE]));
        await send(
          op,
          'every parameter uncoercible',
          hasBody ? pathOf(op, null) : `${pathOf(op, null)}?${names.map((n) => `${n}[a][b]=1`).join('&')}`,
          hasBody ? json(everything) : {},
        );
      }
      if (hasBody) await send(op, 'valid', pathOf(op, null), json(baselineOf(op, declared)));
      else await send(op, 'valid', `${pathOf(op, null)}?${query({}, requiredQuery())}`, {});

      // Each declared parameter gets each poison once, as root with the others valid (so that
      // it reaches the endpoint); then a few names the operation may read without declaring,
      // with random poison, on a path that may be hostile, from anyone.
      const plan: { targets: string[]; poison: number | null }[] = [];
      const poisons = hasBody ? JSON_POISONS.length : QUERY_POISONS.length;
      for (const name of names) for (let k = 0; k < poisons; k++) plan.push({ targets: [name], poison: k });
      for (let k = 0; k < UNDECLARED_PER_OPERATION; k++) plan.push({ targets: [r.pick(PARAM_NAMES), r.pick(PARAM_NAMES)], poison: null });
      for (const { targets, poison } of plan) {
        const hostilePath = poison === null && r.chance(0.3) ? r.pick(HOSTILE_SEGMENTS) : null;
        const token = poison !== null ? undefined : r.chance(0.2) ? null : r.chance(0.3) ? world.userToken : undefined;
        const who = token === null ? 'anonymous' : token ? 'user' : 'root';
        const where = `${hostilePath === null ? '' : `path ${hostilePath}, `}${who}`;
        if (!hasBody) {
          const values = Object.fromEntries(targets.map((n) => [n, poison !== null ? QUERY_POISONS[poison] : r.pick(HOSTILE_STRINGS)]));
          await send(op, where, `${pathOf(op, hostilePath)}?${query(values, requiredQuery())}`, { token });
          continue;
        }
        const body = baselineOf(op, declared);
        for (const name of targets) body[name] = poison !== null ? JSON_POISONS[poison] : hostileJson(r);
        const label = `${where}, json ${JSON.stringify(Object.fromEntries(targets.map((n) => [n, body[n]]))).slice(0, 300)}`;
        await send(op, label, pathOf(op, hostilePath), { token, ...json(body) });
      }

      // The operations that take a file: valid fields with the file, then each field poisoned in turn.
      const files = filesOf(op);
      if (hasBody && Object.keys(files).length) {
        await send(op, 'multipart, valid', pathOf(op, null), { body: multipart(baselineOf(op, declared), files) });
        for (const [i, name] of names.entries()) {
          if (name in files) continue;
          const poison = MULTIPART_POISONS[i % MULTIPART_POISONS.length];
          const fields = { ...baselineOf(op, declared), [name]: poison };
          await send(op, `multipart, ${name}=${JSON.stringify(poison.slice(0, 20))}`, pathOf(op, null), { body: multipart(fields, files) });
        }
      }

      // One hostile header: the conditional, authentication and sudo headers are parsed too.
      const [header, value] = r.pick(HOSTILE_HEADERS);
      await send(op, `header ${header}: ${value.slice(0, 40)}`, pathOf(op, null), {
        token: header === 'Authorization' ? null : undefined,
        // fetch sends header values as Latin-1: the UTF-8 bytes of a value go as their own characters.
        headers: { [header]: Buffer.from(value).toString('latin1'), ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
        body: hasBody ? JSON.stringify(baselineOf(op, declared)) : undefined,
      });
      for (const param of op.pathParams) {
        for (let k = 0; k < 2; k++) {
          const segment = r.pick(HOSTILE_SEGMENTS);
          const url = fillTemplate(op.template, (name) => (name === param ? segment : validValue(world.valid, op.template, name)));
          await send(op, `path ${param}=${segment}`, url, hasBody ? json(baselineOf(op, declared)) : {});
        }
      }
      if (hasBody) {
        // Broken bodies, encodings and framings: every kind on a few operations, two kinds on each.
        const kinds = rawBodies(baselineOf(op, declared));
        const chosen = r.chance(0.05) ? kinds : [r.pick(kinds), r.pick(kinds)];
        for (const raw of chosen) await send(op, raw.label, pathOf(op, null), { headers: raw.headers, body: raw.body, token: r.chance(0.2) ? null : undefined });
      }
    }

    const report = failures.map((f) => `${f.status} ${f.request}\n    ${f.body}`).join('\n');
    expect(sent).to.be.greaterThan(5000);
    expect(failures, `${failures.length} of ${sent} requests answered 5xx:\n${report}`).to.deep.equal([]);
    expect(
      fs.readdirSync(tmp).filter((f) => f.startsWith('wharf-upload-')),
      'uploads left behind',
    ).to.deep.equal([]);
  });
});
