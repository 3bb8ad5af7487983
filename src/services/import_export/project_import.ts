// Importing a GitLab 10.x export (GitLab 10.8's Projects::GitlabProjectsImportService and
// RepositoryImportWorker): `POST /projects/import` makes the project (empty repository,
// `import_status` scheduled), keeps the uploaded archive in Wharf's own folder and queues the
// import in the repository_import queue. The job unpacks the archive into its own temp folder
// (import_export/import_archive.ts), checks VERSION and project.json, verifies the bundle and clones it into
// a temporary repository, puts its LFS objects and uploads in their stores (archive_lfs.ts,
// archive_uploads.ts), then, under the project's lock, restores the relations (and records
// those files) in one transaction whose last step puts the new repository in place: either everything is there
// (`finished`) or nothing is (`failed` with `import_error`, the project as it was made).
// Either way the temp folder goes when the import ends (import_export/import_work.ts, which also removes
// at start those of imports a crash cut short).
// A `namespace` the caller may not read (read_namespace: a group they are no member of,
// another user's) is 404 Namespace Not Found, as a missing one (10.8's find_namespace!): only
// one they may read can answer 400 "Namespace is not valid".
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { Invalid, NotFound, Rejected } from '../../store/domain_errors.js';
import { enqueueJob } from '../../store/job_queue.js';
import { now } from '../../store/time.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { findNamespaceByIdOrPath } from '../../finders/namespaces.js';
import { can } from '../../policy/can.js';
import { namespaceFacts } from '../../policy/namespaces.js';
import { cloneBundle, validRefName, verifiedBundleRefs } from '../../git/bundle.js';
import { forget } from '../../git/cache.js';
import { checkVersion, ImportError, readTree, unpackArchive } from './import_archive.js';
import { restoreTree } from './import_tree.js';
import { createProject, type NewProject } from '../projects/projects.js';
import { withProjectLock } from '../repository/guard.js';
import { overwriteProject, overwritingPath } from './project_overwrite.js';
import { restoreAvatar } from './archive_avatar.js';
import { receiveArchivedUploads, recordArchivedUploads } from './archive_uploads.js';
import { discardArchivedLfsObjects, receiveArchivedLfsObjects, recordArchivedLfsObjects, type ArchivedLfsObject } from './archive_lfs.js';
import { importWorkDir, removeTempFolder } from './import_work.js';
import { afterRefsMoved } from '../push/refs_moved.js';
import { findUserById } from '../../finders/users.js';

export const PROJECT_IMPORT_JOB = 'project_import';

export interface ImportRequest {
  path: string;
  namespace?: string;
  file: string;
  overrides?: Partial<NewProject>;
  /** Replace the project that has this path once the import finished (import_export/project_overwrite.ts). */
  overwrite?: boolean;
}

export interface ImportPayload {
  projectId: number;
  userId: number;
  /** The path of the project an overwriting import replaces. */
  originalPath?: string;
}

function importsDir(deps: Deps): string {
  return path.join(deps.repos.root, '@wharf', 'imports');
}

function archiveOf(deps: Deps, projectId: number): string {
  return path.join(importsDir(deps), `${projectId}.tar.gz`);
}

/** GitLab's answer to a model that did not save: the first full message. */
function firstMessage(err: Invalid): string {
  const [field, messages] = Object.entries(err.fields)[0] ?? ['base', ['is invalid']];
  const name = field === 'base' ? '' : `${field[0].toUpperCase()}${field.slice(1).replace(/_/g, ' ')} `;
  return `${name}${messages[0]}`;
}

/** Makes the project and queues its import; the project as answered (import_status scheduled). */
export async function scheduleImport(deps: Deps, user: UserRow, req: ImportRequest): Promise<ProjectWithNamespace> {
  const namespace = req.namespace === undefined ? undefined : await findNamespaceByIdOrPath(deps.db, req.namespace);
  if (req.namespace !== undefined && !(namespace && can(user, { kind: 'namespace', ...(await namespaceFacts(deps.db, user, namespace)) }, 'read_namespace'))) {
    throw new NotFound('Namespace');
  }
  const namespaceId = namespace?.id;
  const namespacePath = namespace ? namespace.full_path : user.username;
  const overwriting = !!req.overwrite && !!(await findProjectByIdOrPath(deps.db, `${namespacePath}/${req.path}`));
  const path = overwriting ? overwritingPath(req.path) : req.path;
  let project: ProjectWithNamespace;
  try {
    project = await createProject(deps, user, { ...req.overrides, name: path, path, namespace_id: namespaceId });
  } catch (err) {
    if (err instanceof Invalid) throw new Rejected(firstMessage(err));
    throw err;
  }
  const target = archiveOf(deps, project.id);
  let scheduled: ProjectWithNamespace | undefined;
  try {
    await fs.promises.mkdir(importsDir(deps), { recursive: true });
    const tmp = `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.promises.copyFile(req.file, tmp);
    // On disk before the 201 that schedules its import: synced, then renamed into place.
    const copy = await fs.promises.open(tmp, 'r');
    try {
      await copy.sync();
    } finally {
      await copy.close();
    }
    await fs.promises.rename(tmp, target);
    await deps.db.transaction(async (tx) => {
      await tx('projects').where({ id: project.id }).update({ import_status: 'scheduled', import_error: null });
      const payload: ImportPayload = { projectId: project.id, userId: user.id, ...(overwriting ? { originalPath: req.path } : {}) };
      await enqueueJob(tx, PROJECT_IMPORT_JOB, payload, { queue: 'repository_import', maxAttempts: 1 });
      // Read in the transaction: the runner may start the import as soon as it commits, and the
      // answer is the project as scheduled (10.8 presents the object import_schedule changed).
      scheduled = await findProjectByIdOrPath(tx, String(project.id));
    });
  } catch (err) {
    await fs.promises.rm(target, { force: true });
    await deps.db('projects').where({ id: project.id }).update({ import_status: 'failed', import_error: 'The archive could not be stored' });
    throw err;
  }
  return scheduled!;
}

function gitHead(gitdir: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['--git-dir', gitdir, 'symbolic-ref', '--short', 'HEAD'], (err, stdout) => resolve(err ? null : stdout.trim()));
  });
}

async function setImportState(deps: Deps, projectId: number, status: string, error: string | null): Promise<void> {
  await deps.db('projects').where({ id: projectId }).update({ import_status: status, import_error: error });
}

/** Builds the repository from the unpacked archive into a temporary folder; null without a bundle. */
async function repositoryFrom(deps: Deps, dir: string, work: string, signal?: AbortSignal): Promise<string | null> {
  const bundle = path.join(dir, 'project.bundle');
  const stat = await fs.promises.lstat(bundle).catch(() => null);
  if (!stat) return null;
  if (!stat.isFile()) throw new ImportError('project.bundle is not a file');
  let refs: { oid: string; ref: string }[];
  try {
    refs = await verifiedBundleRefs(bundle, path.join(work, 'scratch.git'), signal);
  } catch {
    throw new ImportError('The repository bundle is not valid (git bundle verify failed)');
  }
  for (const { ref } of refs) if (!(await validRefName(ref))) throw new ImportError(`The repository bundle holds a ref with a refused name: ${JSON.stringify(ref.slice(0, 200))}`);
  const tmp = deps.repos.tempPath();
  try {
    await cloneBundle(bundle, tmp, signal);
  } catch {
    await fs.promises.rm(tmp, { recursive: true, force: true });
    throw new ImportError('The repository could not be restored from its bundle');
  }
  return tmp;
}

/** The run of the import job: its id names the work folder. */
export interface ImportRun {
  jobId: number;
  progress(message: string): Promise<void>;
  signal?: AbortSignal;
}

/** The job: import the stored archive into the project, all or nothing. */
export async function performImport(deps: Deps, payload: ImportPayload, run: ImportRun): Promise<unknown> {
  const { progress, signal } = run;
  const project = await findProjectByIdOrPath(deps.db, String(payload.projectId));
  const user: UserRow | undefined = await findUserById(deps.db, payload.userId);
  const archive = archiveOf(deps, payload.projectId);
  if (!project || !user || !fs.existsSync(archive)) {
    if (project) await setImportState(deps, project.id, 'failed', 'The archive is gone');
    return null;
  }
  const work = importWorkDir(deps, run.jobId);
  let newRepo: string | null = null;
  let lfsObjects: ArchivedLfsObject[] = [];
  try {
    await setImportState(deps, project.id, 'started', null);
    await progress('unpacking');
    const dir = path.join(work, 'archive');
    await unpackArchive(archive, dir);
    await checkVersion(dir);
    const tree = await readTree(dir);
    await progress('restoring the repository');
    newRepo = await repositoryFrom(deps, dir, work, signal);
    const head = newRepo ? await gitHead(newRepo) : null;
    await progress('restoring the LFS objects');
    lfsObjects = await receiveArchivedLfsObjects(deps, dir);
    const uploads = await receiveArchivedUploads(deps, dir);
    await progress('restoring the relations');
    let importedBranch: string | null = null;
    const counts = await withProjectLock(deps, project.id, async () => {
      const current = await findProjectByIdOrPath(deps.db, String(project.id));
      if (!current) throw new ImportError('The project was deleted during its import');
      const fullPath = fullPathOf(current);
      const gitdir = deps.repos.pathFor(fullPath);
      const trashName = `import-${project.id}-${crypto.randomBytes(6).toString('hex')}`;
      let swapped = false;
      try {
        const result = await deps.db.transaction(async (tx) => {
          const c = await restoreTree(tx, project.id, user, tree, now(), (m) => void progress(m));
          await restoreAvatar(tx, project.id, dir);
          await recordArchivedLfsObjects(tx, project.id, lfsObjects);
          await recordArchivedUploads(tx, project.id, user.id, uploads);
          const branch = head && newRepo && fs.existsSync(path.join(newRepo, 'refs')) ? head : null;
          importedBranch = branch;
          await tx('projects').where({ id: project.id }).update({ import_status: 'finished', import_error: null, default_branch: branch, updated_at: now() });
          if (newRepo) {
            // Last step of the transaction: the new repository replaces the empty one.
            await deps.repos.trash(fullPath, trashName);
            await fs.promises.rename(newRepo, gitdir);
            swapped = true;
          }
          return c;
        });
        forget(gitdir);
        if (swapped) await deps.repos.purge(trashName);
        return result;
      } catch (err) {
        if (swapped) {
          await fs.promises.rename(gitdir, newRepo as string);
          await deps.repos.untrash(trashName, fullPath);
          forget(gitdir);
        } else if (newRepo && !fs.existsSync(gitdir)) {
          await deps.repos.untrash(trashName, fullPath);
        }
        throw err;
      }
    });
    newRepo = null;
    const imported = await findProjectByIdOrPath(deps.db, String(project.id));
    if (imported) await afterRefsMoved(deps, { project: imported, user, updates: [], statistics: 'now', asPush: false, importedDefaultBranch: importedBranch });
    if (payload.originalPath) {
      await progress('replacing the project it overwrites');
      await overwriteProject(deps, user, (await findProjectByIdOrPath(deps.db, String(project.id)))!, payload.originalPath);
    }
    return counts;
  } catch (err) {
    const message = err instanceof ImportError ? err.message : `The import failed: ${(err as Error).message.slice(0, 500)}`;
    await setImportState(deps, project.id, 'failed', message);
    return { failed: message };
  } finally {
    if (newRepo) await removeTempFolder(deps, newRepo);
    await discardArchivedLfsObjects(lfsObjects);
    await removeTempFolder(deps, work);
    await fs.promises.rm(archive, { force: true });
  }
}
