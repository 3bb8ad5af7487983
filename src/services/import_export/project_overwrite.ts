// `overwrite=true` of POST /projects/import, as GitLab 10.8 does it
// (Projects::GitlabProjectsImportService, Gitlab::ImportExport::Importer#overwrite_project and
// Projects::OverwriteProjectService): when a project already has the requested path, the
// archive is imported into a new project under `<path>-<32 hex>`; only once that import has
// finished, and only for a user who may administer the namespace (admin_namespace), the old
// project hands its stars, members, deploy keys and forks over to the new one, is destroyed,
// and the new project takes its name and path. A failed import leaves the old project as it
// was; when the old project is gone by then, the new one keeps its temporary path, as in 10.8.
import crypto from 'node:crypto';
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { namespaceFacts } from '../../policy/namespaces.js';
import { can } from '../../policy/can.js';
import { deleteProject, updateProject } from '../projects/projects.js';

/** The temporary path of an overwriting import (GitLab: `path-#{SecureRandom.hex}`). */
export function overwritingPath(path: string): string {
  return `${path}-${crypto.randomBytes(16).toString('hex')}`;
}

/** Moves what the old project's users set up onto the new one (OverwriteProjectService#move_before_destroy_relationships). */
async function moveRelations(deps: Deps, from: ProjectWithNamespace, to: ProjectWithNamespace): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const starred = tx('users_star_projects').where({ project_id: to.id }).select('user_id');
    await tx('users_star_projects').where({ project_id: from.id }).whereNotIn('user_id', starred).update({ project_id: to.id });
    const members = tx('members').where({ source_type: 'project', source_id: to.id }).whereNotNull('user_id').select('user_id');
    await tx('members').where({ source_type: 'project', source_id: from.id }).whereNotIn('user_id', members).update({ source_id: to.id });
    const keys = tx('deploy_keys_projects').where({ project_id: to.id }).select('deploy_key_id');
    await tx('deploy_keys_projects').where({ project_id: from.id }).whereNotIn('deploy_key_id', keys).update({ project_id: to.id });
    await tx('projects').where({ forked_from_id: from.id }).whereNot({ id: to.id }).update({ forked_from_id: to.id });
    // star_count is kept by the service that stars (forks_count by a trigger).
    await tx('projects')
      .where({ id: to.id })
      .update({ star_count: tx('users_star_projects').count('*').where({ project_id: to.id }) });
  });
}

/**
 * After the import into `imported` finished: replaces the project at `originalPath` in the same
 * namespace with it. Returns the project as it is afterwards.
 */
export async function overwriteProject(deps: Deps, user: UserRow, imported: ProjectWithNamespace, originalPath: string): Promise<ProjectWithNamespace> {
  const old = await findProjectByIdOrPath(deps.db, `${imported.namespace.full_path}/${originalPath}`);
  if (!old || old.id === imported.id) return imported;
  if (!can(user, { kind: 'namespace', ...(await namespaceFacts(deps.db, user, imported.namespace)) }, 'admin_namespace')) {
    throw new Error(`you may not overwrite ${fullPathOf(old)}`);
  }
  await moveRelations(deps, old, imported);
  await deleteProject(deps, old, user);
  return updateProject(deps, imported, { name: old.name, path: old.path });
}
