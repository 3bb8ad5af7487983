// The repositories of a backup, each consistent with itself and with the database snapshot: for
// every project of the snapshot, under its repository lock (no move, delete or housekeeping
// meanwhile), its refs are read first (`git for-each-ref`, written as the copy's packed-refs)
// and its objects linked in after. git writes a pushed commit's objects before moving a ref to
// it, so every ref of the copy names objects the copy has; a push meanwhile is in the backup
// either whole or not at all. A repository is stored at the path the snapshot names (it may
// have moved since); a project deleted since the snapshot is removed from the snapshot too, so
// that no row of the backup names a repository it lacks.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Deps } from '../../deps.js';
import type { Db } from '../../store/db.js';
import { findProjectByIdOrPath, fullPathOf, gitdirOf } from '../../finders/projects.js';
import { withProjectLock } from '../repository/guard.js';
import { filesUnder } from '../../git/files_under.js';
import type { Staging } from './staging.js';
import { PART_FOLDER } from './parts.js';

const run = promisify(execFile);
/** Staging again when a pack or loose object vanished under a repack (it is then in a new pack). */
const ATTEMPTS = 3;

async function stageRepository(staging: Staging, gitdir: string, rel: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout } = await run('git', ['--git-dir', gitdir, 'for-each-ref', '--format=%(objectname) %(refname)'], { maxBuffer: 256 * 1024 * 1024 });
      await staging.write(`${rel}/packed-refs`, `# pack-refs with: sorted \n${stdout}`, 'repositories');
      for (const small of ['HEAD', 'config', 'description']) {
        if (fs.existsSync(path.join(gitdir, small))) await staging.copy(path.join(gitdir, small), `${rel}/${small}`, 'repositories');
      }
      for (const dir of ['refs/heads', 'refs/tags']) await fs.promises.mkdir(path.join(staging.root, rel, dir), { recursive: true });
      for (const file of await filesUnder(path.join(gitdir, 'objects'))) {
        if (file.startsWith('tmp_') || file.includes('/tmp_') || file.startsWith('incoming-')) continue; // a push's quarantine
        await staging.link(path.join(gitdir, 'objects', file), `${rel}/objects/${file}`, 'repositories');
      }
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === ATTEMPTS) throw err;
      await staging.drop(`${rel}/`);
    }
  }
}

/** Stages every repository of the snapshot; deletes from it the projects gone since. */
export async function stageRepositories(deps: Deps, snapshot: Db, staging: Staging): Promise<number> {
  const projects: { id: number; full_path: string }[] = await snapshot('projects as p')
    .join('namespaces as n', 'n.id', 'p.namespace_id')
    .select('p.id', snapshot.raw(`n.full_path || '/' || p.path as full_path`))
    .orderBy('p.id');
  const gone: number[] = [];
  let staged = 0;
  for (const { id, full_path: snapshotPath } of projects) {
    await withProjectLock(deps, id, async () => {
      const live = await findProjectByIdOrPath(deps.db, String(id));
      if (!live) return void gone.push(id);
      if (!deps.repos.exists(fullPathOf(live))) return;
      deps.repos.pathFor(snapshotPath); // the snapshot's path is checked as any repository path
      await stageRepository(staging, gitdirOf(deps.repos, live), `${PART_FOLDER.repositories}/${snapshotPath}.git`);
      staged++;
    });
  }
  if (gone.length) await snapshot('projects').whereIn('id', gone).delete();
  return staged;
}
