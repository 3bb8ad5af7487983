// Fuzzing every mounted API route: a seeded (deterministic) stream of requests with valid and
// hostile path parameters, malformed query values, JSON bodies of wrong types (nulls, huge
// numbers, deep nesting, arrays for scalars), broken Content-Encodings, broken multipart and
// wrong Content-Types, as root, as a plain user and anonymously. GitLab answers a client's
// mistake with a 4xx; so must Wharf: any 5xx fails the test, listing every route and input.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootServer, ROOT_TOKEN, type TestServer } from '../helpers/server.js';
import { commitFiles, createBranch, createProject, created, openMergeRequest, repoDir } from '../helpers/projects.js';
import { git } from '../helpers/bare_git.js';
import {
  fillPattern, HOSTILE_SEGMENTS, HOSTILE_STRINGS, hostileJson, mountedRoutes, namesInError, PARAM_NAMES, patternParams, Random, rawBodies, UNCOERCIBLE, type Route,
} from '../helpers/fuzz.js';

/** Fixed, so every run sends the same requests; FUZZ_SEED=<n> explores other sequences by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_2026);
/** Requests per route with names it does not declare (it may read them all the same). */
const UNDECLARED_PER_ROUTE = 3;
/** The classes of poison each declared parameter gets, in the query string and in a JSON body. */
const QUERY_POISONS = ['abc\u0000def', '99999999999999999999', '"x" NEAR({title}: *)'];
const JSON_POISONS: unknown[] = [null, 'abc\u0000def', [{ a: 1 }]];
const POISONS = QUERY_POISONS.length;
/** A request still unanswered after this long counts as a failure (the server hangs on it). */
const REQUEST_TIMEOUT_MS = 10_000;
const HOSTILE_HEADERS: [string, string][] = [
  ['If-Unmodified-Since', 'yesterday'], ['If-Unmodified-Since', 'Tue, 99 Foo 99999 99:99:99 GMT'], ['If-Unmodified-Since', '0'],
  ['If-None-Match', '"' + 'x'.repeat(2000)], ['If-Modified-Since', 'garbage'], ['Sudo', '99999999999999999999'], ['Sudo', '%00'],
  ['Sudo', 'ветка'], ['Authorization', 'Bearer'], ['Authorization', 'Bearer ' + 'x'.repeat(3000)], ['Authorization', 'Basic !!!'],
  ['Private-Token', 'ветка'], ['Accept', 'application/xml'], ['Accept-Encoding', 'br;q=x'],
  ['Range', 'bytes=9999999999-1'], ['X-Request-Id', 'x'.repeat(5000)],
];

interface Failure {
  request: string;
  status: number;
  body: string;
}

describe('fuzz: every route answers malformed input with a 4xx, never a 5xx', function () {
  this.timeout(120_000);
  let s: TestServer;
  let userToken: string;
  /** A valid value (URL-encoded) for each path parameter name. */
  let valid: Record<string, string>;
  /** Valid-looking body values; a mutation replaces one or two of them. */
  let baseline: Record<string, unknown>;

  let tmp: string;
  let savedTmp: string | undefined;

  before(async () => {
    // Uploads go to os.tmpdir(): a folder of this suite's own shows whether any is left behind.
    savedTmp = process.env.TMPDIR;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-fuzz-'));
    process.env.TMPDIR = tmp;
    s = await bootServer({ WHARF_MAX_BODY_BYTES: '200000' });
    const plain = await s.createUser('plain');
    const victim = await s.createUser('victim');
    userToken = plain.token;
    const group = created(await s.post('/groups', { json: { name: 'fuzzgroup', path: 'fuzzgroup' } }));
    const project = await createProject(s, ROOT_TOKEN, { name: 'fuzzed', visibility: 'public' });
    const master = await commitFiles(s, project.id, 'master', [{ action: 'create', file_path: 'README.md', content: 'hello\n' }, { action: 'create', file_path: 'lib/a.rb', content: 'a\n' }], { token: ROOT_TOKEN });
    git(repoDir(s, project.path_with_namespace), ['tag', 'v1', master]);
    await createBranch(s, project.id, 'feature', 'master', ROOT_TOKEN);
    await createBranch(s, project.id, 'ветка', 'master', ROOT_TOKEN); // HOSTILE_STRINGS names it
    await commitFiles(s, project.id, 'feature', [{ action: 'update', file_path: 'README.md', content: 'changed\n' }], { token: ROOT_TOKEN });
    const issue = created(await s.post(`/projects/${project.id}/issues`, { json: { title: 'fuzz issue', description: 'words here' } }));
    const mr = await openMergeRequest(s, project.id, { title: 'fuzz mr', source_branch: 'feature', target_branch: 'master' }, ROOT_TOKEN);
    const note = created(await s.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: 'a note' } }));
    created(await s.post(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { json: { body: 'an mr note' } }));
    const award = created(await s.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { json: { name: 'tada' } }));
    const label = created(await s.post(`/projects/${project.id}/labels`, { json: { name: 'bug', color: '#ff0000' } }));
    const milestone = created(await s.post(`/projects/${project.id}/milestones`, { json: { title: 'v1' } }));
    created(await s.post(`/projects/${project.id}/members`, { json: { user_id: victim.user.id, access_level: 30 } }));
    created(await s.post(`/projects/${project.id}/protected_branches`, { json: { name: 'release-*' } }));
    const token = created(await s.post(`/users/${victim.user.id}/impersonation_tokens`, { json: { name: 't', scopes: ['api'] } }));
    await s.put(`/projects/${project.id}/custom_attributes/colour`, { json: { value: 'blue' } });
    valid = {
      id: String(project.id), user_id: String(victim.user.id), group_id: String(group.id), key: 'colour',
      impersonation_token_id: String(token.id), issue_iid: String(issue.iid), merge_request_iid: String(mr.iid),
      noteable_id: String(issue.iid), iid: String(issue.iid), subscribable_id: String(issue.iid), note_id: String(note.id),
      award_id: String(award.id), label_id: String(label.id), milestone_id: String(milestone.id), sha: master,
      file_path: 'README.md', branch: 'feature', tag_name: 'v1', name: 'release-*', format: 'zip',
      'groups:id': String(group.id), 'users:id': String(victim.user.id), 'namespaces:id': String(group.id), 'todos:id': '1',
    };
    baseline = {
      title: 'fuzzed title', description: 'text', name: 'fuzzname', path: 'fuzzpath', body: 'a body', content: 'content\n',
      branch: 'fuzz-branch', ref: 'master', commit_message: 'fuzz', email: 'fuzz@example.com', username: 'fuzzuser',
      password: 'password123', duration: '1h', value: 'v', access_level: 30, user_id: victim.user.id, source_branch: 'feature',
      target_branch: 'master', color: '#00ff00', from: 'master', to: 'feature', group_id: group.id, group_access: 30,
      scopes: ['api'], actions: [{ action: 'create', file_path: 'fuzz.txt', content: 'x' }], labels: 'bug', state_event: 'close',
    };
  });
  after(async () => {
    await s?.close();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Routes that change what later requests rely on (delete, archive, block) go last. */
  function destructive(r: Route): boolean {
    return r.method === 'DELETE' || /\/(archive|block)$/.test(r.path);
  }

  it('answers no request with a 5xx', async () => {
    const r = new Random(SEED);
    const routes = mountedRoutes(s.deps);
    expect(routes.length).to.be.greaterThan(100);
    const ordered = [...routes.filter((x) => !destructive(x)), ...routes.filter(destructive)];
    const failures: Failure[] = [];
    let sent = 0;

    const send = async (route: Route, label: string, url: string, init: { headers?: Record<string, string>; body?: Buffer | string; token?: string | null }) => {
      const headers: Record<string, string> = { ...init.headers };
      const token = init.token === undefined ? ROOT_TOKEN : init.token;
      if (token) headers['PRIVATE-TOKEN'] = token;
      sent += 1;
      let status: number;
      let text: string;
      try {
        const res = await fetch(`${s.url}${url}`, { method: route.method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), body: route.method === 'GET' || init.body === undefined ? undefined : new Uint8Array(Buffer.from(init.body)) });
        status = res.status;
        text = await res.text();
      } catch (err) {
        status = 599;
        text = `connection failed: ${(err as Error).message}`;
      }
      if (status >= 500) failures.push({ request: `${route.method} ${route.path} [${label}] ${url.slice(0, 200)}`, status, body: text.slice(0, 200) });
    };

    /** The valid value of a path parameter; `:id` is a project's, a group's, a user's… by the path's first segment. */
    const valueOf = (route: Route, name: string): string => {
      if (name === 'id') {
        const family = route.path.split('/')[3];
        return valid[`${family}:id`] ?? valid.id;
      }
      return valid[name] ?? '1';
    };

    const pathOf = (route: Route, hostile: string | null) => {
      const names = patternParams(route.path);
      const target = hostile !== null && names.length ? r.pick(names) : null;
      return fillPattern(route.path, (name) => (name === target ? hostile! : valueOf(route, name)));
    };

    /** A query string setting each name to a value, in one of Rack's shapes (values cut to keep the URL short). */
    const query = (values: Record<string, string>): string =>
      Object.entries(values)
        .map(([name, raw]) => {
          const value = encodeURIComponent(raw.slice(0, 500));
          const shape = r.int(4);
          if (shape === 0) return `${name}=${value}`;
          if (shape === 1) return `${name}[]=${value}&${name}[]=${value}`;
          if (shape === 2) return `${name}[a][b]=${value}`;
          return `${name}=${value}&${name}=${value}`;
        })
        .join('&');

    /** The parameters a route declares, read from its 400 when every known name is uncoercible. */
    const declared = async (route: Route): Promise<string[]> => {
      const url = pathOf(route, null);
      const names = PARAM_NAMES.filter((n) => n !== 'sudo'); // an uncoercible sudo is a 404 before any parameter
      const everything = Object.fromEntries(names.map((n) => [n, UNCOERCIBLE]));
      const res = route.method === 'GET'
        ? await fetch(`${s.url}${url}?${names.map((n) => `${n}[a][b]=1`).join('&')}`, { headers: { 'PRIVATE-TOKEN': ROOT_TOKEN } })
        : await fetch(`${s.url}${url}`, { method: route.method, headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' }, body: JSON.stringify(everything) });
      sent += 1;
      const text = await res.text();
      if (res.status >= 500) failures.push({ request: `${route.method} ${route.path} [every parameter uncoercible]`, status: res.status, body: text.slice(0, 200) });
      return res.headers.get('content-type') === 'application/json' ? namesInError(JSON.parse(text)) : [];
    };

    for (const route of ordered) {
      const hasBody = route.method !== 'GET';
      const names = (await declared(route)).filter((n) => !patternParams(route.path).includes(n));
      // Valid values only: reaches the handler's real work.
      await send(route, 'valid', pathOf(route, null), hasBody ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(baseline) } : {});
      // Each declared parameter gets each class of poison once; then a few names the route may
      // read without declaring, with random poison; then hostile path segments.
      const plan: string[][] = [];
      for (const name of names) for (let k = 0; k < POISONS; k++) plan.push([name]);
      for (let k = 0; k < UNDECLARED_PER_ROUTE; k++) plan.push([r.pick(PARAM_NAMES), r.pick(PARAM_NAMES)]);
      let poison = 0;
      for (const targets of plan) {
        const hostilePath = r.chance(0.1) ? r.pick(HOSTILE_SEGMENTS) : null;
        const token = r.chance(0.1) ? null : r.chance(0.15) ? userToken : undefined;
        const who = token === null ? 'anonymous' : token ? 'user' : 'root';
        const k = targets.length === 1 ? poison++ % POISONS : POISONS;
        if (!hasBody) {
          const values = Object.fromEntries(targets.map((n) => [n, k < POISONS ? QUERY_POISONS[k] : r.pick(HOSTILE_STRINGS)]));
          const label = `${hostilePath === null ? '' : `path ${hostilePath}, `}${who}`;
          await send(route, label, `${pathOf(route, hostilePath)}?${query(values)}`, { token });
          continue;
        }
        const json: Record<string, unknown> = { ...baseline };
        for (const name of targets) json[name] = k < POISONS ? JSON_POISONS[k] : hostileJson(r);
        const label = `${hostilePath === null ? '' : `path ${hostilePath}, `}${who}, json ${JSON.stringify(Object.fromEntries(targets.map((n) => [n, json[n]]))).slice(0, 300)}`;
        await send(route, label, pathOf(route, hostilePath), { token, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) });
      }
      // One hostile header: the conditional, authentication and sudo headers are parsed too.
      const [header, value] = r.pick(HOSTILE_HEADERS);
      await send(route, `header ${header}: ${value.slice(0, 40)}`, pathOf(route, null), {
        token: header === 'Authorization' ? null : undefined,
        // fetch sends header values as Latin-1: the UTF-8 bytes of a value go as their own characters.
        headers: { [header]: Buffer.from(value).toString('latin1'), ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
        body: hasBody ? JSON.stringify(baseline) : undefined,
      });
      for (const param of patternParams(route.path)) {
        for (let k = 0; k < 2; k++) {
          const segment = r.pick(HOSTILE_SEGMENTS);
          const url = fillPattern(route.path, (name) => (name === param ? segment : valueOf(route, name)));
          await send(route, `path ${param}=${segment}`, url, hasBody ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(baseline) } : {});
        }
      }
      if (hasBody) {
        // Broken bodies, encodings and framings: every kind on a few routes, two kinds on each.
        const kinds = rawBodies(baseline);
        const chosen = r.chance(0.05) ? kinds : [r.pick(kinds), r.pick(kinds)];
        for (const raw of chosen) await send(route, raw.label, pathOf(route, null), { headers: raw.headers, body: raw.body, token: r.chance(0.2) ? null : undefined });
      }
    }

    const report = failures.map((f) => `${f.status} ${f.request}\n    ${f.body}`).join('\n');
    expect(sent).to.be.greaterThan(2000);
    expect(failures, `${failures.length} of ${sent} requests answered 5xx:\n${report}`).to.deep.equal([]);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('wharf-upload-')), 'uploads left behind').to.deep.equal([]);
  });
});
