// Finishing repository moves and deletes that a crash interrupted, and the start-up sweep.
//
// A move or delete writes a journal entry (git/repo_journal.ts) before its folder moves and
// removes it after the rows are written, all under the project's repository lock. Whoever
// takes the lock next finds any entry left behind and settles it by the project row, which
// is the truth: the row names the target → the move happened (the entry goes); the row
// still names the source → the move did not happen (the folder goes back); no row → the
// project is gone (the folder goes to the trash). A deleted project's trashed folder comes
// back if its rows are still there. At start every entry is settled the same way, trash and
// temporary folders of dead processes are removed, stale git lock files are cleared
// (git/stale_locks.ts) and a project row whose folder is missing gets an empty repository.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { sweepStaleFiles } from '../../git/stale_locks.js';

export const projectLockKey = (id: number): string => `project-${id}`;
const PROJECT_KEY = /^project-(\d+)$/;
/** A temporary folder of another host is left alone for this long (it may still be filling). */
const FOREIGN_TMP_MS = 24 * 3600_000;

async function projectAt(deps: Deps, fullPath: string): Promise<ProjectWithNamespace | undefined> {
  return findProjectByIdOrPath(deps.db, fullPath);
}

/** Moves a folder no project owns (any more) to the trash and removes it. */
async function discardUnowned(deps: Deps, projectId: number, fullPath: string): Promise<void> {
  if (!deps.repos.occupied(fullPath)) return;
  const owner = await projectAt(deps, fullPath);
  if (owner && owner.id !== projectId) return; // another project lives there now
  deps.log.warn({ project: projectId, path: fullPath }, 'removing a repository folder that no project owns');
  await deps.repos.remove(fullPath);
}

/**
 * Settles the journal entry of project `id`, if any. Call it holding the project's repository
 * lock (withProjectLock does, before anything else).
 */
export async function settleJournal(deps: Deps, id: number): Promise<void> {
  const key = projectLockKey(id);
  const entry = await deps.repos.journal.read(key);
  if (!entry) return;
  const row = await findProjectByIdOrPath(deps.db, String(id));
  const current = row ? fullPathOf(row) : null;
  if (entry.op === 'move') {
    if (current === entry.from || current === entry.to) {
      const other = current === entry.from ? entry.to : entry.from;
      if (!deps.repos.occupied(current) && deps.repos.occupied(other)) {
        deps.log.warn({ project: id, from: other, to: current }, 'finishing an interrupted repository move');
        await deps.repos.move(other, current);
      }
    } else {
      for (const p of [entry.from, entry.to]) await discardUnowned(deps, id, p);
    }
  } else if (current) {
    if (!deps.repos.occupied(current) && (await deps.repos.untrash(entry.trash, current))) {
      deps.log.warn({ project: id, path: current }, 'restored the repository of a delete that did not complete');
    }
  }
  await deps.repos.journal.remove(key);
  // A deleted project's folder (or one that could not be restored) goes for good.
  if (entry.op === 'delete' && fs.existsSync(deps.repos.trashPath(entry.trash))) await deps.repos.purge(entry.trash);
}

/** Journal entries left by a crash, each settled under its project's lock. */
async function settleAllJournals(deps: Deps, withLock: (id: number, fn: () => Promise<void>) => Promise<void>): Promise<Set<string>> {
  const trashInUse = new Set<string>();
  for (const key of await deps.repos.journal.keys()) {
    const m = PROJECT_KEY.exec(key);
    if (!m) continue;
    await withLock(Number(m[1]), () => settleJournal(deps, Number(m[1])));
    const left = await deps.repos.journal.read(key); // another process's operation under way
    if (left?.op === 'delete') trashInUse.add(left.trash);
  }
  return trashInUse;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Temporary folders of dead processes (a create or fork cut short). */
async function sweepTemp(deps: Deps): Promise<void> {
  const host = os.hostname();
  for (const name of await fs.promises.readdir(deps.repos.tmpDir)) {
    const dir = path.join(deps.repos.tmpDir, name);
    const m = /^(.*)\.(\d+)\.[0-9a-f]+\.git$/.exec(name);
    let dead: boolean;
    if (m && m[1] === host) dead = Number(m[2]) === process.pid ? false : !processAlive(Number(m[2]));
    else dead = Date.now() - (await fs.promises.stat(dir)).mtimeMs > FOREIGN_TMP_MS;
    if (dead) await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The start-up recovery: journal entries, trash, temporary folders, stale lock files, and
 * project rows without a repository. Safe while other processes run: it takes each
 * project's lock, and leaves what a live process may still be using.
 */
export async function recoverRepositories(deps: Deps, withLock: (id: number, fn: () => Promise<void>) => Promise<void>): Promise<void> {
  const trashBefore = await fs.promises.readdir(deps.repos.trashDir); // listed before the journal: see below
  const inUse = await settleAllJournals(deps, withLock);
  // A trashed folder is listed in the journal until its delete's rows are written; one listed
  // nowhere was left by a delete whose removal failed or was cut short.
  for (const name of trashBefore) if (!inUse.has(name)) await deps.repos.purge(name);
  await sweepTemp(deps);

  const rows: { id: number; path: string; full_path: string; created_at: string }[] = await deps
    .db('projects as p')
    .join('namespaces as n', 'n.id', 'p.namespace_id')
    .select('p.id', 'p.path', 'n.full_path', 'p.created_at');
  // A project created in the last minute may be getting its repository from a live process.
  const settled = Date.now() - 60_000;
  let cleared = 0;
  for (const r of rows) {
    const fullPath = `${r.full_path}/${r.path}`;
    if (deps.repos.occupied(fullPath)) {
      cleared += await sweepStaleFiles(deps.repos.pathFor(fullPath));
      continue;
    }
    if (Date.parse(r.created_at) > settled) continue;
    await withLock(r.id, async () => {
      const row = await findProjectByIdOrPath(deps.db, String(r.id));
      if (!row || deps.repos.occupied(fullPathOf(row))) return;
      deps.log.error({ project: r.id, path: fullPathOf(row) }, 'a project had no repository folder: created an empty one');
      await deps.repos.create(fullPathOf(row), row.default_branch ?? 'master');
    });
  }
  if (cleared) deps.log.warn({ files: cleared }, 'removed stale git lock files and temporary objects');
}
