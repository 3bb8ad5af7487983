// git smart HTTP at `{external_url}/<namespace path>/<project>.git`: clone, fetch and push.
//
//   GET  …/info/refs?service=git-upload-pack|git-receive-pack   the ref advertisement
//   POST …/git-upload-pack                                      fetch negotiation → pack
//   POST …/git-receive-pack                                     commands + pack → report
//
// The pack work is done by the real git (`upload-pack`/`receive-pack --stateless-rpc`), as
// GitLab does underneath. Correctness: git itself speaks every protocol detail clients use
// (v0 and v2 via the Git-Protocol header, shallow and deepen, partial clone filters, thin
// packs, side-band, ref locking with compare-and-swap so two pushes to one branch never
// lose a commit), where a reimplementation would be forever catching up. Speed: git's pack
// code reuses deltas and streams, with no pack ever held in memory here. Wharf only does
// what GitLab's Rails and hooks did: authenticate (http_auth.ts), authorise (git_access.ts,
// shared with SSH), check each ref of a push and do the post-push work (push_session.ts).
import type Koa from 'koa';
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import { recordUserActivity } from '../services/users/activity.js';
import { findProjectByIdOrPath, fullPathOf, gitdirOf } from '../finders/projects.js';
import { checkAccess, GitAccessDenied, type GitRequest, type GitService } from './git_access.js';
import { authenticate, GitHttpError, httpRefusal } from './http_auth.js';
import { CommandListReader, FLUSH, pkt, PktFramingChecker, type CommandList } from './pktline.js';
import { decodedBody, readHead, UnsupportedEncoding } from './body.js';
import { BadRequestBody, runService, type ServiceRun } from './spawn.js';
import { followUpPush, openPush, preparePush, receivePackConfig } from './push_session.js';
import { SidebandRedactor, wantsSideband } from './sideband_redact.js';
import { redactPaths } from './redact.js';
import { gitEnvironment, wantsProtocolV2 } from './git_env.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import { settingsOf } from '../services/settings/application_settings.js';
import { recordGitOperation } from '../services/metrics/metrics.js';
import { FetchKind } from './fetch_kind.js';

export { redactPaths } from './redact.js';

const GIT_PATH = /^\/(.+)\/([^/]+)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;
// GitLab redirects the handshake of a URL without `.git` (only with no query, or a service).
const BARE_INFO_REFS = /^\/(.+)\/([^/]+)\/info\/refs$/;
const HANDSHAKE_QUERY = /^(|service=git-(upload|receive)-pack)$/;

/** The command list of a push may be long (a mirror push of many tags), not unbounded. */
const MAX_COMMAND_LIST = 32 * 1024 * 1024;

const NO_CACHE = {
  Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
  Pragma: 'no-cache',
  'Cache-Control': 'no-cache, max-age=0, must-revalidate',
};

interface HttpGitRequest extends GitRequest {
  command: GitService;
}

/** Mounted before the API and its body parser: git bodies are streams, never parsed here. */
export function gitHttpMiddleware(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) return next();
    const m = GIT_PATH.exec(ctx.path);
    if (!m) return redirectBare(deps, ctx, next);
    const [, rawNamespace, rawProject, action] = m;
    const method = action === 'info/refs' ? 'GET' : 'POST';
    if (ctx.method !== method && !(method === 'GET' && ctx.method === 'HEAD')) return next();
    let fullPath: string;
    try {
      fullPath = `${decodeURIComponent(rawNamespace)}/${decodeURIComponent(rawProject)}`;
    } catch {
      return next();
    }
    const service = action === 'info/refs' ? queryService(ctx) : action;
    ctx.state.routeTemplate = `/:namespace/:project.git/${action}`; // the metrics' route label
    try {
      const project = await findProjectByIdOrPath(deps.db, fullPath);
      // Read once per request (already, when a rate limit looked at them).
      const settings = (ctx.state.settings as ApplicationSettings | undefined) ?? (await settingsOf(deps));
      ctx.state.settings = settings;
      const actor = await authenticate(deps, ctx.get('authorization') || undefined, project, service, settings);
      const access = await checkAccess(deps, actor, project, service, 'http', settings);
      const req: HttpGitRequest = {
        project: project!,
        actor,
        access,
        command: service as GitService,
        gitdir: gitdirOf(deps.repos, project!),
      };
      if (action === 'info/refs') await advertise(deps, ctx, req);
      else await serve(deps, ctx, req);
    } catch (caught) {
      const err = caught instanceof GitAccessDenied ? httpRefusal(caught) : caught;
      if (!(err instanceof GitHttpError) || ctx.headerSent) throw err;
      ctx.status = err.status;
      ctx.set(err.headers);
      ctx.type = 'text/plain';
      ctx.body = err.body;
    }
  };
}

function queryService(ctx: Koa.Context): string | undefined {
  const s = (ctx.state.query as Record<string, unknown> | undefined)?.service ?? ctx.query.service;
  return typeof s === 'string' ? s : undefined;
}

async function redirectBare(deps: Deps, ctx: Koa.Context, next: Koa.Next): Promise<void> {
  const m = BARE_INFO_REFS.exec(ctx.path);
  if (!m || ctx.method !== 'GET' || !HANDSHAKE_QUERY.test(ctx.querystring)) return next();
  // Unlike GitLab, without looking the project up: a redirect must not reveal a private one.
  ctx.redirect(`${deps.urls.base}/${m[1]}/${m[2]}.git/info/refs${ctx.querystring ? `?${ctx.querystring}` : ''}`);
}

/** git's environment (git_env.ts), with the protocol of the Git-Protocol header. */
function gitEnv(ctx: Koa.Context, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return gitEnvironment(ctx.get('git-protocol') || undefined, extra);
}

function serviceArgs(service: GitService, gitdir: string, extra: string[]): string[] {
  // Partial clone: let clients ask for `--filter=blob:none` and the like.
  const config = service === 'git-upload-pack' ? ['-c', 'uploadpack.allowFilter=true'] : [];
  return [...config, service.slice(4), '--stateless-rpc', ...extra, gitdir];
}

function baseRun(deps: Deps, ctx: Koa.Context, req: HttpGitRequest): Pick<ServiceRun, 'res' | 'redact' | 'killOnDisconnect'> {
  ctx.respond = false;
  return {
    res: ctx.res,
    redact: (text) => redactPaths(text, req.gitdir, fullPathOf(req.project), deps.repos.root),
    killOnDisconnect: req.command === 'git-upload-pack',
  };
}

async function advertise(deps: Deps, ctx: Koa.Context, req: HttpGitRequest): Promise<void> {
  const env = gitEnv(ctx);
  // Protocol v2 has no `# service=` preamble (as git-http-backend).
  const v2 = req.command === 'git-upload-pack' && wantsProtocolV2(env);
  if (req.command === 'git-upload-pack') await recordUserActivity(deps.db, req.actor.user);
  ctx.status = 200;
  const result = await runService({
    ...baseRun(deps, ctx, req),
    args: serviceArgs(req.command, req.gitdir, ['--advertise-refs']),
    env,
    input: null,
    headers: { 'Content-Type': `application/x-${req.command}-advertisement`, ...NO_CACHE },
    prefix: v2 ? undefined : Buffer.concat([pkt(`# service=${req.command}\n`), FLUSH]),
  });
  recordGitOperation('advertise', req.command, result.bytesIn, result.bytesOut);
}

async function serve(deps: Deps, ctx: Koa.Context, req: HttpGitRequest): Promise<void> {
  const expected = `application/x-${req.command}-request`;
  if ((ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase() !== expected) {
    // As git-http-backend: also keeps browsers' cross-site form posts away from pushes.
    throw new GitHttpError(415, `Unsupported Media Type: expected ${expected}\n`);
  }
  let input: Readable;
  try {
    input = decodedBody(ctx.req);
  } catch (err) {
    if (err instanceof UnsupportedEncoding) throw new GitHttpError(415, `${err.message}\n`);
    throw err;
  }
  try {
    if (req.command === 'git-upload-pack') await uploadPack(deps, ctx, req, input);
    else await receivePack(deps, ctx, req, input);
  } catch (err) {
    if (err instanceof BadRequestBody) throw new GitHttpError(400, `${err.message}\n`);
    throw err;
  }
}

async function uploadPack(deps: Deps, ctx: Koa.Context, req: HttpGitRequest, input: Readable): Promise<void> {
  // A fetch request is pkt-lines throughout: the first one is checked before git starts,
  // the rest as it streams by.
  const checker = new PktFramingChecker();
  const kind = new FetchKind();
  const { head } = await readHead(input, (chunk) => (checker.feed(chunk), kind.feed(chunk), checker.packets > 0 ? true : null), MAX_COMMAND_LIST);
  ctx.status = 200;
  const result = await runService({
    ...baseRun(deps, ctx, req),
    args: serviceArgs(req.command, req.gitdir, []),
    env: gitEnv(ctx),
    input,
    head,
    inspect: {
      feed: (chunk) => (checker.feed(chunk), kind.feed(chunk)),
      end: () => checker.end(),
    },
    headers: { 'Content-Type': 'application/x-git-upload-pack-result', ...NO_CACHE },
  });
  recordGitOperation(kind.operation, req.command, result.bytesIn, result.bytesOut);
}

async function receivePack(deps: Deps, ctx: Koa.Context, req: HttpGitRequest, input: Readable): Promise<void> {
  const reader = new CommandListReader();
  const { value: list, head } = await readHead<CommandList>(input, (chunk) => reader.feed(chunk), MAX_COMMAND_LIST);
  const config = receivePackConfig(); // throws (a 500) if hooks cannot run: never push unchecked
  const { dir, env } = await openPush();
  try {
    await preparePush(deps, req, list, dir);
    ctx.status = 200;
    const run = baseRun(deps, ctx, req);
    const result = await runService({
      ...run,
      rewrite: wantsSideband(list.capabilities) ? new SidebandRedactor(run.redact) : undefined,
      args: [...config, ...serviceArgs(req.command, req.gitdir, [])],
      env: gitEnv(ctx, env),
      input,
      head,
      headers: { 'Content-Type': 'application/x-git-receive-pack-result', ...NO_CACHE },
      beforeEnd: () => followUpPush(deps, req, dir),
    });
    recordGitOperation('push', req.command, result.bytesIn, result.bytesOut);
  } finally {
    await dir.remove();
  }
}
