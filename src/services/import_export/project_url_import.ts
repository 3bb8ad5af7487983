// Importing a repository from a URL (`import_url` on POST /projects; GitLab 10.8's
// RepositoryImportWorker for a git URL): the project is made with its empty repository and
// `import_status` scheduled; a repository_import job follows the URL's HTTP redirects itself
// (each hop's resolved address checked by security/import_url_guard.ts, and its probe sent to that very
// address; git told not to follow any), then clones with the real `git clone --mirror` pinned
// to the checked address (http.curloptResolve; a git:// URL is cloned from the checked address
// itself), so a name that resolves elsewhere the second time is not followed;
// the clone replaces the empty repository under the project's lock. Credentials stay in the
// job's payload; the stored import_url and every message carry the URL without them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { execFile } from 'node:child_process';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';
import { now } from '../../store/time.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { forget } from '../../git/cache.js';
import { settingsOf } from '../settings/application_settings.js';
import { redactUrl, resolveAllowed } from '../security/import_url_guard.js';
import { withProjectLock } from '../repository/guard.js';
import { afterRefsMoved } from '../push/refs_moved.js';

export const URL_IMPORT_JOB = 'repository_import_url';
const MAX_REDIRECTS = 5;

/** Queues the clone of `url` into project `projectId` (inside the caller's transaction). */
export async function scheduleUrlImport(tx: Conn, projectId: number, url: string): Promise<void> {
  await tx('projects')
    .where({ id: projectId })
    .update({ import_url: redactUrl(url), import_status: 'scheduled', import_error: null });
  await enqueueJob(tx, URL_IMPORT_JOB, { projectId, url }, { queue: 'repository_import', maxAttempts: 1 });
}

/** A git:// URL with its host replaced by the address checked for it (IPv6 in brackets). */
function pinnedGitUrl(url: URL, address: string): string {
  const pinned = new URL(url.toString());
  pinned.hostname = address.includes(':') ? `[${address}]` : address;
  return pinned.toString();
}

/** A `lookup` that answers the address already checked, whatever the name: no second resolution. */
function pinnedLookup(address: string): LookupFunction {
  const family = net.isIPv6(address) ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    callback(null, address, family);
  };
}

/** GET `url` from `address` (TLS still checks the URL's host name); its status and Location. */
function probeAt(url: URL, address: string, headers: Record<string, string> | undefined): Promise<{ status: number; location: string | null }> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, lookup: pinnedLookup(address), signal: AbortSignal.timeout(30_000) }, (res) => {
      res.resume();
      const location = res.headers.location;
      resolve({ status: res.statusCode ?? 0, location: typeof location === 'string' ? location : null });
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

/** Follows redirects of a smart-HTTP URL, checking each hop; the final repository URL and its pinned address. */
async function checkedTarget(url: string, allowLocal: boolean): Promise<{ url: string; pin: string | null }> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const addresses = await resolveAllowed(current.hostname, allowLocal);
    // git:// has no redirects; git connects to the address checked here, not to the name
    // resolved again (which could answer differently the second time).
    if (current.protocol === 'git:') return { url: pinnedGitUrl(current, addresses[0]), pin: null };
    const port = current.port || (current.protocol === 'https:' ? '443' : '80');
    const pin = `${current.hostname}:${port}:${addresses[0]}`;
    if (hop >= MAX_REDIRECTS) throw new Error('Import url is blocked: too many redirects');
    const probe = new URL(current.toString());
    probe.pathname = `${probe.pathname.endsWith('/') ? probe.pathname.slice(0, -1) : probe.pathname}/info/refs`;
    probe.search = 'service=git-upload-pack';
    const auth = current.username
      ? { Authorization: `Basic ${Buffer.from(`${decodeURIComponent(current.username)}:${decodeURIComponent(current.password)}`).toString('base64')}` }
      : undefined;
    probe.username = '';
    probe.password = '';
    const res = await probeAt(probe, addresses[0], auth);
    const location = res.location;
    if (res.status < 300 || res.status >= 400 || !location) return { url: current.toString(), pin };
    const next = new URL(location, probe);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error('Import url is blocked: redirected to another protocol');
    // The repository's URL is where info/refs went, without that suffix (as git does).
    if (next.pathname.endsWith('/info/refs')) next.pathname = next.pathname.slice(0, -'/info/refs'.length);
    next.search = '';
    if (current.username && next.host === current.host) {
      next.username = current.username;
      next.password = current.password;
    }
    current = next;
  }
}

function gitClone(url: string, pin: string | null, target: string, signal?: AbortSignal): Promise<void> {
  const args = ['-c', 'http.followRedirects=false', ...(pin ? ['-c', `http.curloptResolve=${pin}`] : []), 'clone', '--quiet', '--mirror', url, target];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { signal, timeout: 3_600_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' } },
      (err, _out, stderr) => {
        if (!err) return resolve();
        // git's message names the URL, credentials included: keep only the reason.
        const reason =
          String(stderr)
            .split('\n')
            .find((l) => l.startsWith('fatal:')) ?? 'git clone failed';
        reject(new Error(`Error importing repository: ${reason.split(url).join(redactUrl(url)).slice(0, 300)}`));
      },
    );
  });
}

export async function performUrlImport(deps: Deps, payload: { projectId: number; url: string }, signal?: AbortSignal): Promise<unknown> {
  const project = await findProjectByIdOrPath(deps.db, String(payload.projectId));
  if (!project) return null;
  const tmp = deps.repos.tempPath();
  try {
    await deps.db('projects').where({ id: project.id }).update({ import_status: 'started', import_error: null });
    const settings = await settingsOf(deps);
    const target = await checkedTarget(payload.url, settings.allow_local_requests_from_hooks_and_services);
    await gitClone(target.url, target.pin, tmp, signal);
    await new Promise<void>((resolve) => execFile('git', ['--git-dir', tmp, 'remote', 'remove', 'origin'], () => resolve()));
    const head = await new Promise<string | null>((resolve) => execFile('git', ['--git-dir', tmp, 'symbolic-ref', '--short', 'HEAD'], (e, out) => resolve(e ? null : out.trim())));
    const hasHead =
      head !== null &&
      fs.existsSync(tmp) &&
      (await new Promise<boolean>((resolve) => execFile('git', ['--git-dir', tmp, 'rev-parse', '--verify', '--quiet', head], (e) => resolve(!e))));
    await withProjectLock(deps, project.id, async () => {
      const current = await findProjectByIdOrPath(deps.db, String(project.id));
      if (!current) throw new Error('The project was deleted during its import');
      const fullPath = fullPathOf(current);
      const gitdir = deps.repos.pathFor(fullPath);
      const trashName = `urlimport-${project.id}-${crypto.randomBytes(6).toString('hex')}`;
      await deps.repos.trash(fullPath, trashName);
      await fs.promises.rename(tmp, gitdir);
      try {
        await deps
          .db('projects')
          .where({ id: project.id })
          .update({ import_status: 'finished', import_error: null, default_branch: hasHead ? head : null, updated_at: now() });
      } catch (err) {
        await fs.promises.rename(gitdir, tmp);
        await deps.repos.untrash(trashName, fullPath);
        throw err;
      }
      forget(gitdir);
      await deps.repos.purge(trashName);
    });
    const imported = await findProjectByIdOrPath(deps.db, String(project.id));
    if (imported) await afterRefsMoved(deps, { project: imported, user: null, updates: [], statistics: 'now', asPush: false, importedDefaultBranch: hasHead ? head : null });
    return { imported: redactUrl(payload.url) };
  } catch (err) {
    const message = String((err as Error).message)
      .split(payload.url)
      .join(redactUrl(payload.url))
      .slice(0, 500);
    await deps.db('projects').where({ id: project.id }).update({ import_status: 'failed', import_error: message });
    return { failed: message };
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}
