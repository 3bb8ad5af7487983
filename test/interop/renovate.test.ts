// Drives Renovate 39 (the dependency bot, its GitLab platform) against the real server, run as
// a user runs it: a child process with RENOVATE_PLATFORM=gitlab, a bot's personal access token
// and one repository. Renovate speaks later GitLab's API (scope=created_by_me, assignee_ids[],
// add_labels, min_access_level), which Wharf takes next to 10.8's. Nothing leaves the machine:
// a tiny npm registry stand-in answers the one packument Renovate looks up, every preset is
// switched off, and a dead proxy catches any other outbound call. The flow: run 1 opens the
// onboarding merge request, the test merges it, run 2 opens the update of left-pad to 1.3.0
// (assigned and labelled as the onboarding config asks), run 3 opens no duplicate.
//
// Renovate is installed apart (test/interop/renovate/package.json, `make test` prepares it);
// when that folder is missing, as in a hand run before `make`, the suite skips and says so.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { bootServer, type TestServer } from '../helpers/server.js';
import { addProjectMembers } from '../helpers/roles.js';
import { commitFiles, createProject } from '../helpers/projects.js';
import { DEVELOPER } from '../../src/policy/levels.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** dist/test/interop → the source folder test/interop/renovate. */
const INSTALL = path.resolve(HERE, '../../../test/interop/renovate');
const RENOVATE = path.join(INSTALL, 'node_modules/renovate/dist/renovate.js');

/** The packument of left-pad with two versions, as the npm registry answers GET /left-pad. */
function packument(base: string) {
  const version = (v: string) => ({
    name: 'left-pad',
    version: v,
    dist: { tarball: `${base}/left-pad/-/left-pad-${v}.tgz`, shasum: '0'.repeat(40) },
  });
  return {
    name: 'left-pad',
    'dist-tags': { latest: '1.3.0' },
    versions: { '1.0.0': version('1.0.0'), '1.3.0': version('1.3.0') },
    time: { created: '2014-03-14T00:00:00.000Z', modified: '2018-04-09T00:00:00.000Z', '1.0.0': '2015-06-22T00:00:00.000Z', '1.3.0': '2018-04-09T00:00:00.000Z' },
  };
}

interface Registry {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function startRegistry(): Promise<Registry> {
  const hits: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.method === 'GET' && (req.url === '/left-pad' || req.url?.startsWith('/left-pad?'))) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(packument(base)));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"error":"Not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: base, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Recorder {
  url: string;
  /** `METHOD /api/v4/...` of every API call Renovate made, in order. */
  calls: string[];
  /** The same with the status answered: `METHOD /path -> 200`. */
  answers: string[];
  close(): Promise<void>;
}

/** A pass-through in front of the server's API that notes each call (Renovate's endpoint). */
async function startRecorder(target: string): Promise<Recorder> {
  const calls: string[] = [];
  const answers: string[] = [];
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    const upstream = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      answers.push(`${req.method} ${req.url} -> ${answer.statusCode}`);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, calls, answers, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Run {
  code: number | null;
  log: string;
  /** Renovate's JSON log lines. */
  lines: Record<string, unknown>[];
  /** The API calls it made, and with their answers' status. */
  calls: string[];
  answers: string[];
}

describe('interop: Renovate 39 (GitLab platform)', function () {
  this.timeout(240_000);
  let s: TestServer;
  let registry: Registry;
  let recorder: Recorder;
  let work: string;
  let projectId: number;
  let fullPath: string;
  let bot: { user: { id: number; username: string }; token: string };
  let reviewer: { user: { id: number; username: string }; token: string };
  let owner: { user: { id: number }; token: string };

  before(async function () {
    if (!fs.existsSync(RENOVATE)) {
      console.log(`    Renovate is not installed (${INSTALL}/node_modules): run \`make test\`, or \`npm ci --ignore-scripts --prefix ${INSTALL}\`; skipping.`);
      this.skip();
    }
    s = await bootServer();
    registry = await startRegistry();
    recorder = await startRecorder(s.url);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-renovate-'));
    owner = await s.createUser('alice');
    bot = await s.createUser('renovate-bot');
    reviewer = await s.createUser('reviewer');
    const project = await createProject(s, owner.token, { name: 'app', visibility: 'private' });
    projectId = project.id;
    fullPath = project.path_with_namespace;
    await addProjectMembers(s, projectId, [
      [bot, DEVELOPER],
      [reviewer, DEVELOPER],
    ]);
    const pkg = { name: 'app', version: '1.0.0', private: true, dependencies: { 'left-pad': '1.0.0' } };
    await commitFiles(s, projectId, 'master', [{ action: 'create', file_path: 'package.json', content: JSON.stringify(pkg, null, 2) + '\n' }], {
      message: 'Initial',
      token: owner.token,
    });
  });

  after(async () => {
    await s?.close();
    await registry?.close();
    await recorder?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** One Renovate run over the project; its JSON log kept in the work folder. */
  async function renovate(name: string): Promise<Run> {
    const onboarding = { extends: [], assignees: [reviewer.user.username], labels: ['dependencies'] };
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      RENOVATE_PLATFORM: 'gitlab',
      RENOVATE_ENDPOINT: `${recorder.url}/api/v4`,
      RENOVATE_TOKEN: bot.token,
      RENOVATE_REPOSITORIES: fullPath,
      RENOVATE_GIT_AUTHOR: 'Renovate Bot <renovate-bot@example.com>',
      RENOVATE_BASE_DIR: path.join(work, 'base'),
      RENOVATE_CACHE_DIR: path.join(work, 'cache'),
      RENOVATE_ONBOARDING: 'true',
      RENOVATE_REQUIRE_CONFIG: 'required',
      RENOVATE_ONBOARDING_CONFIG: JSON.stringify(onboarding),
      RENOVATE_DETECT_HOST_RULES_FROM_ENV: 'false',
      RENOVATE_FETCH_CHANGE_LOGS: 'off',
      RENOVATE_NPMRC: `registry=${registry.url}/\n`,
      RENOVATE_PR_HOURLY_LIMIT: '0',
      // Any call beyond this machine goes to a dead proxy and fails at once.
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '127.0.0.1,localhost',
      GIT_TERMINAL_PROMPT: '0',
    };
    recorder.calls.length = 0;
    recorder.answers.length = 0;
    // WHARF_RENOVATE_LOGS=<folder> keeps each run's log and calls there, to read afterwards.
    const logDir = process.env.WHARF_RENOVATE_LOGS ?? work;
    fs.mkdirSync(logDir, { recursive: true });
    const logFile = path.join(logDir, `${name}.log`);
    const out = fs.openSync(logFile, 'w');
    const started = Date.now();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [RENOVATE], { env, cwd: work, stdio: ['ignore', out, out] });
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      child.on('error', reject);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    fs.closeSync(out);
    const log = fs.readFileSync(logFile, 'utf8');
    const lines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return {};
        }
      });
    if (process.env.WHARF_RENOVATE_TIMING) console.log(`    ${name}: ${Date.now() - started} ms`);
    fs.writeFileSync(path.join(logDir, `${name}.calls`), recorder.answers.join('\n') + '\n');
    return { code, log, lines, calls: [...recorder.calls], answers: [...recorder.answers] };
  }

  /** Every answer but the 404s Renovate expects (a file or a branch it looks for) was a success. */
  function expectNoRefusal(run: Run): void {
    const refused = run.answers.filter((a) => !/ -> (2\d\d|404)$/.test(a));
    expect(refused, problems(run)).to.deep.equal([]);
  }

  /** The problems Renovate logged (warn and above: level 40+), for the failure message. */
  function problems(run: Run): string {
    return run.lines
      .filter((l) => Number(l.level) >= 40)
      .map((l) => `${l.msg} ${JSON.stringify(l.err ?? l.body ?? '')}`.slice(0, 600))
      .join('\n');
  }

  const mergeRequests = async () => (await s.get(`/projects/${projectId}/merge_requests`, { token: owner.token, query: { state: 'all' } })).body as any[];

  it('run 1 opens the onboarding merge request', async () => {
    const run = await renovate('run1');
    expect(run.code, problems(run) || run.log.slice(-3000)).to.equal(0);
    expectNoRefusal(run);
    const mrs = await mergeRequests();
    expect(
      mrs.map((m) => m.source_branch),
      problems(run),
    ).to.deep.equal(['renovate/configure']);
    const [mr] = mrs;
    expect(mr).to.include({ state: 'opened', target_branch: 'master', title: 'Configure Renovate' });
    expect(mr.author.username).to.equal('renovate-bot');
    const file = await s.get(`/projects/${projectId}/repository/files/renovate.json`, { token: owner.token, query: { ref: 'renovate/configure' } });
    expect(file.status).to.equal(200);
    expect(JSON.parse(Buffer.from(file.body.content, 'base64').toString('utf8'))).to.deep.include({ assignees: ['reviewer'], labels: ['dependencies'] });
    expect(
      registry.hits.some((h) => h.startsWith('/left-pad')),
      'the onboarding lists the update to come',
    ).to.equal(true);
    // Renovate asked in later GitLab's spelling, and had its answers.
    const encoded = encodeURIComponent(fullPath);
    expect(run.calls).to.include(`GET /api/v4/projects/${encoded}/merge_requests?per_page=100&scope=created_by_me`);
    expect(run.calls).to.include('GET /api/v4/version');
  });

  it('the onboarding merge request is merged through the API', async () => {
    const [mr] = await mergeRequests();
    const r = await s.put(`/projects/${projectId}/merge_requests/${mr.iid}/merge`, { token: owner.token, json: {} });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.state).to.equal('merged');
  });

  it('run 2 opens the update of left-pad to 1.3.0, assigned and labelled', async () => {
    const run = await renovate('run2');
    expect(run.code, problems(run) || run.log.slice(-3000)).to.equal(0);
    expectNoRefusal(run);
    const update = (await mergeRequests()).filter((m) => m.source_branch === 'renovate/left-pad-1.x');
    expect(update.length, problems(run)).to.equal(1);
    const [mr] = update;
    expect(mr).to.include({ state: 'opened', target_branch: 'master', title: 'Update dependency left-pad to v1.3.0' });
    expect(mr.labels).to.deep.equal(['dependencies']);
    expect(mr.assignee?.username, problems(run)).to.equal('reviewer');
    const file = await s.get(`/projects/${projectId}/repository/files/package.json`, { token: owner.token, query: { ref: 'renovate/left-pad-1.x' } });
    expect(JSON.parse(Buffer.from(file.body.content, 'base64').toString('utf8')).dependencies).to.deep.equal({ 'left-pad': '1.3.0' });
    expect(run.calls.some((c) => c.startsWith(`PUT /api/v4/projects/${encodeURIComponent(fullPath)}/merge_requests/${mr.iid}?assignee_ids`))).to.equal(true);
  });

  it('run 3 opens no duplicate', async () => {
    const before = await mergeRequests();
    const run = await renovate('run3');
    expect(run.code, problems(run) || run.log.slice(-3000)).to.equal(0);
    expectNoRefusal(run);
    const after = await mergeRequests();
    expect(after.map((m) => [m.iid, m.source_branch, m.state])).to.deep.equal(before.map((m) => [m.iid, m.source_branch, m.state]));
    expect(after.filter((m) => m.state === 'opened').map((m) => m.source_branch)).to.deep.equal(['renovate/left-pad-1.x']);
  });
});
