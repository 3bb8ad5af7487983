// Forking a project (GitLab 10.8's Projects::ForkService): a new project with the parent's
// name, path, description and settings, in the user's namespace or another they may create
// projects in, no more visible than the parent or the namespace, linked by forked_from_id.
// It is created through createProject (same validations, membership, event), its repository
// made by `git clone --bare --local` of the parent's into a temporary folder, renamed into
// place: the objects are hardlinked, so the fork keeps them when the parent is deleted; its
// Git LFS objects are linked to the fork too (services/lfs/forks.ts). A failed clone removes
// the new project again.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Deps } from '../../deps.js';
import type { NamespaceRow, ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { ForkFailed, Invalid } from '../../store/domain_errors.js';
import { visibilityName } from '../../store/levels.js';
import { findProjectByIdOrPath, gitdirOf } from '../../finders/projects.js';
import { createProject } from './projects.js';
import { settingsOf } from '../settings/application_settings.js';
import { closestAllowedLevel } from '../../policy/visibility.js';
import { whileRepositoryExists } from '../repository/guard.js';
import { shareLfsObjectsWithFork } from '../lfs/forks.js';

const run = promisify(execFile);

/** Creates the fork; model errors (name or path taken) answer 409, as the fork API's conflict!. */
export async function forkProject(deps: Deps, user: UserRow, parent: ProjectWithNamespace, namespace: NamespaceRow): Promise<ProjectWithNamespace> {
  // ForkService#allowed_visibility_level: no more visible than the parent or the namespace,
  // and the closest level the instance does not restrict.
  const { restricted_visibility_levels: restricted } = await settingsOf(deps);
  const level = closestAllowedLevel(Math.min(parent.visibility_level, namespace.visibility_level), restricted);
  let fork: ProjectWithNamespace;
  try {
    const parentDir = gitdirOf(deps.repos, parent);
    const clone = async (dir: string) => {
      await whileRepositoryExists(deps, parent, () => run('git', ['clone', '--bare', '--local', '--quiet', parentDir, dir]));
      await run('git', [`--git-dir=${dir}`, 'remote', 'remove', 'origin']).catch(() => undefined);
    };
    fork = await createProject(
      deps,
      user,
      {
        name: parent.name,
        path: parent.path,
        namespace_id: namespace.id,
        description: parent.description ?? undefined,
        visibility: visibilityName(level),
        shared_runners_enabled: !!parent.shared_runners_enabled,
        jobs_enabled: !!parent.jobs_enabled,
      },
      clone,
    );
  } catch (err) {
    if (err instanceof Invalid) throw new ForkFailed(err.fields);
    throw err;
  }
  await deps.db('projects').where({ id: fork.id }).update({ forked_from_id: parent.id, default_branch: parent.default_branch, import_status: 'finished' });
  await shareLfsObjectsWithFork(deps.db, parent.id, fork.id);
  return (await findProjectByIdOrPath(deps.db, String(fork.id)))!;
}
