// Project export as GitLab 10.8 does it (Projects::ImportExport::ExportService,
// ProjectExportWorker, lib/gitlab/import_export): `POST /projects/:id/export` queues the
// export in the project_export queue and answers 202; the job writes VERSION (0.2.3),
// project.json (import_export/export_tree.ts), project.bundle (`git bundle create --all`, none
// for an empty repository), `avatar/`, `lfs-objects/` and `uploads/` (archive_avatar.ts,
// archive_lfs.ts, archive_uploads.ts) into a folder, packs it as a `tar czf` of that folder
// (entries `./…`), under a temporary name renamed into place, so a download never sees a
// half-written file.
// With `upload[url]` the status is `after_export_action` while the archive is sent there
// (PUT by default, or POST), then `finished`. GitLab's file name is
// `<YYYY-MM-DD_HH-MM-mmm>_<full path, / as _, 51 chars at most>_export.tar.gz`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import { enqueueJob } from '../../store/job_queue.js';
import { now } from '../../store/time.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { findProjectByIdOrPath, fullPathOf, gitdirOf } from '../../finders/projects.js';
import { createBundle, hasRefs } from '../../git/bundle.js';
import { projectTree } from './export_tree.js';
import { fillMergeRequestDiffs } from './export_mr_diffs.js';
import { saveAvatar } from './archive_avatar.js';
import { saveLfsObjects } from './archive_lfs.js';
import { saveUploads } from './archive_uploads.js';
import { settingsOf } from '../settings/application_settings.js';
import { assertAllowedUrl, BlockedAddress, guardedLookup } from '../security/outbound_url.js';

export const PROJECT_EXPORT_JOB = 'project_export';
/** The archive format this program writes and reads (GitLab 10.8's Gitlab::ImportExport.version). */
export const EXPORT_VERSION = '0.2.3';

export type ExportStatus = 'none' | 'started' | 'after_export_action' | 'finished';

export interface ExportRequest {
  description?: string;
  uploadUrl?: string;
  uploadMethod?: 'PUT' | 'POST';
}

interface ExportRow {
  project_id: number;
  status: string;
  file_name: string | null;
  description: string | null;
  upload_url: string | null;
  upload_method: string | null;
  error: string | null;
}

/** Where a project's finished archive lives (beside the repositories, in Wharf's own folder). */
function exportDir(deps: Deps, projectId: number): string {
  return path.join(deps.repos.root, '@wharf', 'exports', String(projectId));
}

/** GitLab's archive name for a project exported at `at`. */
function exportFileName(fullPath: string, at: Date): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}_${pad(at.getUTCHours())}-${pad(at.getUTCMinutes())}-${pad(at.getUTCMilliseconds(), 3)}`;
  return `${stamp}_${fullPath.split('/').join('_')}`.slice(0, 51) + '_export.tar.gz';
}

/** Queues the export (in the transaction that records it as started). */
export async function startExport(deps: Deps, project: ProjectWithNamespace, req: ExportRequest): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = {
      status: 'started',
      description: req.description ?? null,
      upload_url: req.uploadUrl ?? null,
      upload_method: req.uploadMethod ?? null,
      error: null,
      updated_at: now(),
    };
    const updated = await tx('project_exports').where({ project_id: project.id }).update(row);
    if (!updated) await tx('project_exports').insert({ project_id: project.id, file_name: null, ...row });
    await enqueueJob(tx, PROJECT_EXPORT_JOB, { projectId: project.id }, { queue: 'project_export', maxAttempts: 3 });
  });
}

/** The archive on disk, when the last export finished and its file is still there. */
export async function exportedFile(deps: Deps, projectId: number): Promise<{ path: string; name: string } | null> {
  const row: ExportRow | undefined = await deps.db('project_exports').where({ project_id: projectId }).first();
  if (!row?.file_name) return null;
  const file = path.join(exportDir(deps, projectId), row.file_name);
  return fs.existsSync(file) ? { path: file, name: row.file_name } : null;
}

export async function exportStatus(deps: Deps, projectId: number): Promise<ExportStatus> {
  const row: ExportRow | undefined = await deps.db('project_exports').where({ project_id: projectId }).first();
  if (!row) return 'none';
  if (row.status === 'finished') return (await exportedFile(deps, projectId)) ? 'finished' : 'none';
  if (row.status === 'started' || row.status === 'after_export_action') return row.status;
  return (await exportedFile(deps, projectId)) ? 'finished' : 'none';
}

async function setStatus(db: Conn, projectId: number, fields: Partial<ExportRow>): Promise<void> {
  await db('project_exports')
    .where({ project_id: projectId })
    .update({ ...fields, updated_at: now() });
}

/** Writes the archive of `project` into `dir` as `name`, through a temporary name. */
async function writeArchive(deps: Deps, project: ProjectWithNamespace, description: string | null, dir: string, name: string, signal?: AbortSignal): Promise<string> {
  const work = path.join(deps.repos.tmpDir, `export.${process.pid}.${crypto.randomBytes(8).toString('hex')}`);
  await fs.promises.mkdir(path.join(work, 'tree'), { recursive: true });
  try {
    const tree = path.join(work, 'tree');
    await fs.promises.writeFile(path.join(tree, 'VERSION'), EXPORT_VERSION);
    const json = await projectTree(deps.db, project, description);
    await fillMergeRequestDiffs(deps, project, json);
    await fs.promises.writeFile(path.join(tree, 'project.json'), JSON.stringify(json));
    await saveAvatar(deps.db, project.id, tree);
    await saveLfsObjects(deps, project.id, tree);
    await saveUploads(deps, project.id, tree);
    const gitdir = gitdirOf(deps.repos, project);
    if (deps.repos.exists(fullPathOf(project)) && (await hasRefs(gitdir))) await createBundle(gitdir, path.join(tree, 'project.bundle'), signal);
    await fs.promises.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.${name}.${crypto.randomBytes(4).toString('hex')}.tmp`);
    const tar = await import('tar'); // loaded by the first export: an idle process does without it
    await tar.c({ gzip: true, cwd: tree, file: tmp, portable: true }, ['.']);
    const fd = await fs.promises.open(tmp, 'r');
    await fd.sync();
    await fd.close();
    const final = path.join(dir, name);
    await fs.promises.rename(tmp, final);
    return final;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** How long an upload may take, from connecting to the receiver's answer. */
const UPLOAD_TIMEOUT_MS = 30 * 60_000;

/**
 * Sends the archive to `url` (GitLab's after-export upload: the file as the body), never to a
 * local address unless `allow_local_requests_from_hooks_and_services` is on (checked on the
 * address the name resolves to when connecting, as webhooks are: security/outbound_url.ts); redirects
 * are not followed.
 */
async function upload(file: string, url: string, method: string, allowLocal: boolean): Promise<void> {
  const target = new URL(url);
  assertAllowedUrl(target, allowLocal);
  const size = (await fs.promises.stat(file)).size;
  const client = target.protocol === 'https:' ? https : http;
  await new Promise<void>((resolve, reject) => {
    const req = client.request(
      target,
      { method, headers: { 'Content-Type': 'application/gzip', 'Content-Length': String(size) }, lookup: guardedLookup(allowLocal), timeout: UPLOAD_TIMEOUT_MS },
      (res) => {
        res.resume(); // the answer's body is not needed
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`the upload answered ${status}`));
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('the upload timed out')));
    fs.createReadStream(file)
      .on('error', (err) => req.destroy(err))
      .pipe(req);
  });
}

/** The job: export the project as it is now, then upload it when asked. */
export async function performExport(deps: Deps, payload: { projectId: number }, progress: (m: string) => Promise<void>, signal: AbortSignal): Promise<{ file: string } | null> {
  const project = await findProjectByIdOrPath(deps.db, String(payload.projectId));
  const row: ExportRow | undefined = await deps.db('project_exports').where({ project_id: payload.projectId }).first();
  if (!project || !row) return null;
  await setStatus(deps.db, project.id, { status: 'started' });
  await progress('writing the archive');
  const dir = exportDir(deps, project.id);
  const name = exportFileName(fullPathOf(project), new Date());
  await writeArchive(deps, project, row.description, dir, name, signal);
  // The previous archive goes once the new one is in place.
  for (const f of await fs.promises.readdir(dir)) if (f !== name) await fs.promises.rm(path.join(dir, f), { force: true });
  if (row.upload_url) {
    await setStatus(deps.db, project.id, { status: 'after_export_action', file_name: name });
    await progress('uploading');
    try {
      const allowLocal = (await settingsOf(deps)).allow_local_requests_from_hooks_and_services;
      await upload(path.join(dir, name), row.upload_url, row.upload_method ?? 'PUT', allowLocal);
    } catch (err) {
      await setStatus(deps.db, project.id, { status: 'finished', error: `upload failed: ${(err as Error).message}` });
      if (err instanceof BlockedAddress) return { file: name }; // refused for good: no retry
      throw err;
    }
  }
  await setStatus(deps.db, project.id, { status: 'finished', file_name: name, error: null });
  return { file: name };
}
