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
// what GitLab's Rails and hooks did: authenticate, authorise, check each ref of a push
// (push_checks.ts, hooks.ts) and the post-push work (services/after_push.ts).
import fs from 'node:fs';
import type Koa from 'koa';
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import type { ApplicationSettings } from '../store/settings_catalogue.js';
import type { ProjectAccess } from '../policy/projects.js';
import { findProjectByIdOrPath, fullPathOf } from '../finders/projects.js';
import { listBranchHeads } from '../git/refs.js';
import { afterPush, recordUserActivity } from '../services/after_push.js';
import { authenticate, checkAccess, GitHttpError, MESSAGES, type GitActor, type GitService } from './git_access.js';
import { CommandListReader, FLUSH, pkt, PktFramingChecker, type CommandList } from './pktline.js';
import { decodedBody, readHead, UnsupportedEncoding } from './body.js';
import { BadRequestBody, runService, type ServiceRun } from './spawn.js';
import { pushChecks } from './push_checks.js';
import { hooksPath, PushDir } from './hooks.js';
import { SidebandRedactor, wantsSideband } from './sideband_redact.js';
import { clearStaleRefLocks } from '../git/stale_locks.js';
import { withProjectRepository } from '../services/repository_guard.js';
import { settingsOf } from '../services/application_settings.js';
import { recordGitOperation } from '../services/metrics.js';
import { FetchKind } from './fetch_kind.js';

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

interface GitRequest {
  project: ProjectWithNamespace;
  actor: GitActor;
  access: ProjectAccess;
  service: GitService;
  gitdir: string;
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
      const access = await checkAccess(deps, actor, project, service, settings);
      const req: GitRequest = {
        project: project!,
        actor,
        access,
        service: service as GitService,
        gitdir: deps.repos.pathFor(fullPathOf(project!)),
      };
      if (action === 'info/refs') await advertise(deps, ctx, req);
      else await serve(deps, ctx, req);
    } catch (err) {
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

/** git's environment: the server's, minus GIT_* that would redirect it, plus the protocol. */
function gitEnv(ctx: Koa.Context, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  const protocol = ctx.get('git-protocol');
  if (protocol && /^[A-Za-z0-9=:._-]{1,200}$/.test(protocol)) env.GIT_PROTOCOL = protocol;
  return { ...env, ...extra };
}

function serviceArgs(service: GitService, gitdir: string, extra: string[]): string[] {
  // Partial clone: let clients ask for `--filter=blob:none` and the like.
  const config = service === 'git-upload-pack' ? ['-c', 'uploadpack.allowFilter=true'] : [];
  return [...config, service.slice(4), '--stateless-rpc', ...extra, gitdir];
}

/**
 * Git's messages with the server's paths taken out: a path inside the repository becomes
 * repository-relative (`refs/heads/master.lock`, as GitLab shows it), the repository itself
 * its project path, and any other path under the repositories root loses the root.
 */
export function redactPaths(text: string, gitdir: string, projectPath: string, root: string): string {
  let out = text;
  for (const dir of new Set([gitdir, realpathOr(gitdir)])) out = out.split(`${dir}/./`).join('').split(`${dir}/`).join('').split(dir).join(`${projectPath}.git`);
  for (const dir of new Set([root, realpathOr(root)])) out = out.split(`${dir}/`).join('').split(dir).join('');
  return out;
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function baseRun(deps: Deps, ctx: Koa.Context, req: GitRequest): Pick<ServiceRun, 'res' | 'redact' | 'killOnDisconnect'> {
  ctx.respond = false;
  return {
    res: ctx.res,
    redact: (text) => redactPaths(text, req.gitdir, fullPathOf(req.project), deps.repos.root),
    killOnDisconnect: req.service === 'git-upload-pack',
  };
}

async function advertise(deps: Deps, ctx: Koa.Context, req: GitRequest): Promise<void> {
  const env = gitEnv(ctx);
  // Protocol v2 has no `# service=` preamble (as git-http-backend).
  const v2 = req.service === 'git-upload-pack' && /(^|:)version=2(:|$)/.test(env.GIT_PROTOCOL ?? '');
  if (req.service === 'git-upload-pack') await recordUserActivity(deps, req.actor.user);
  ctx.status = 200;
  const result = await runService({
    ...baseRun(deps, ctx, req),
    args: serviceArgs(req.service, req.gitdir, ['--advertise-refs']),
    env,
    input: null,
    headers: { 'Content-Type': `application/x-${req.service}-advertisement`, ...NO_CACHE },
    prefix: v2 ? undefined : Buffer.concat([pkt(`# service=${req.service}\n`), FLUSH]),
  });
  recordGitOperation('advertise', req.service, result.bytesIn, result.bytesOut);
}

async function serve(deps: Deps, ctx: Koa.Context, req: GitRequest): Promise<void> {
  const expected = `application/x-${req.service}-request`;
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
    if (req.service === 'git-upload-pack') await uploadPack(deps, ctx, req, input);
    else await receivePack(deps, ctx, req, input);
  } catch (err) {
    if (err instanceof BadRequestBody) throw new GitHttpError(400, `${err.message}\n`);
    throw err;
  }
}

async function uploadPack(deps: Deps, ctx: Koa.Context, req: GitRequest, input: Readable): Promise<void> {
  // A fetch request is pkt-lines throughout: the first one is checked before git starts,
  // the rest as it streams by.
  const checker = new PktFramingChecker();
  const kind = new FetchKind();
  const { head } = await readHead(input, (chunk) => (checker.feed(chunk), kind.feed(chunk), checker.packets > 0 ? true : null), MAX_COMMAND_LIST);
  ctx.status = 200;
  const result = await runService({
    ...baseRun(deps, ctx, req),
    args: serviceArgs(req.service, req.gitdir, []),
    env: gitEnv(ctx),
    input,
    head,
    inspect: {
      feed: (chunk) => (checker.feed(chunk), kind.feed(chunk)),
      end: () => checker.end(),
    },
    headers: { 'Content-Type': 'application/x-git-upload-pack-result', ...NO_CACHE },
  });
  recordGitOperation(kind.operation, req.service, result.bytesIn, result.bytesOut);
}

/**
 * Under the project's repository lock (so that no rename or delete is half done and no other
 * process clears the same file): the project must still live in this folder, else the push
 * answers as for a missing project; lock files a crash left on the pushed refs are cleared.
 * git itself takes each ref's lock for the update; a push is not held under the repository
 * lock while it uploads, which would stop every API write for as long as a slow client takes.
 */
async function clearLeftoverLocks(deps: Deps, req: GitRequest, list: CommandList): Promise<void> {
  try {
    await withProjectRepository(deps, req.project, (gitdir) => clearStaleRefLocks(gitdir, list.commands.map((c) => c.ref)));
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404 || status === 409) throw new GitHttpError(404, MESSAGES.projectNotFound);
    throw err;
  }
}

async function receivePack(deps: Deps, ctx: Koa.Context, req: GitRequest, input: Readable): Promise<void> {
  const reader = new CommandListReader();
  const { value: list, head } = await readHead<CommandList>(input, (chunk) => reader.feed(chunk), MAX_COMMAND_LIST);
  const user = req.actor.user!; // checkAccess refuses anonymous pushes
  await clearLeftoverLocks(deps, req, list);
  let checks: Awaited<ReturnType<typeof pushChecks>> = [];
  if (list.commands.length) {
    const emptyRepo = (await listBranchHeads(req.gitdir)).size === 0;
    const protection = emptyRepo ? ((ctx.state.settings as ApplicationSettings | undefined) ?? (await settingsOf(deps))).default_branch_protection : undefined;
    checks = await pushChecks(deps.db, user, req.project, req.access, list.commands, emptyRepo, protection);
  }
  const hooks = hooksPath(); // throws (a 500) if hooks cannot run: never push unchecked
  const dir = await PushDir.create(checks);
  try {
    ctx.status = 200;
    const run = baseRun(deps, ctx, req);
    const result = await runService({
      ...run,
      rewrite: wantsSideband(list.capabilities) ? new SidebandRedactor(run.redact) : undefined,
      args: ['-c', `core.hooksPath=${hooks}`, ...serviceArgs(req.service, req.gitdir, [])],
      env: gitEnv(ctx, { WHARF_PUSH_DIR: dir.dir }),
      input,
      head,
      headers: { 'Content-Type': 'application/x-git-receive-pack-result', ...NO_CACHE },
      beforeEnd: async () => {
        // Refs that moved are final whatever the client does now: always follow them up.
        try {
          // The project as it is now: renamed meanwhile, git carried on in the moved folder
          // (it works relative to the folder it entered); deleted, there is nothing to follow.
          const project = await findProjectByIdOrPath(deps.db, String(req.project.id));
          if (project) await afterPush(deps, project, user, await dir.pushed());
        } catch (err) {
          deps.log.error({ err, project: req.project.id }, 'after-push work failed');
        }
      },
    });
    recordGitOperation('push', req.service, result.bytesIn, result.bytesOut);
  } finally {
    await dir.remove();
  }
}
