// Transferring a project into another namespace (GitLab 10.8's Projects::TransferService,
// used by POST /groups/:id/projects/:project_id): refused when the project is already there
// or the namespace holds a project of the same path; otherwise the repository moves with the
// row in one journalled step under the project's lock (repository/moves.ts, as a rename), the
// project becomes no more visible than its new group, and the system hooks hear
// project_transfer. GitLab's label transfer copies the old group's labels into the project:
// Wharf has project labels only, so there is nothing to carry. Refusals answer 10.8's text,
// the model error hash as Ruby prints it.
import type { Deps } from '../../deps.js';
import type { NamespaceRow, ProjectWithNamespace } from '../../store/rows.js';
import { Invalid, NotFound, Rejected } from '../../store/domain_errors.js';
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { now } from '../../store/time.js';
import { findProjectByIdOrPath, fullPathOf } from '../../finders/projects.js';
import { withProjectLock } from '../repository/guard.js';
import { moveRepositories } from '../repository/moves.js';
import { announce } from '../notify.js';

const SAME_NAMESPACE = 'Transfer failed, please contact an admin.';
const PATH_TAKEN = 'Project with same path in target namespace already exists';
const CANNOT_MOVE = 'Cannot move project';

/** 10.8's answer: "Failed to transfer project #{project.errors.messages}" (a Ruby Hash's inspect). */
function transferFailed(reason: string): Rejected {
  return new Rejected(`Failed to transfer project {:new_namespace=>[${JSON.stringify(reason)}]}`);
}

async function pathTaken(db: Conn, namespaceId: number, path: string): Promise<boolean> {
  return !!(await db('projects').where({ namespace_id: namespaceId }).whereRaw('lower(path) = ?', [path.toLowerCase()]).first('id'));
}

/** Moves `project` into `namespace` (the caller is an admin); the project as it is then. */
export async function transferProject(deps: Deps, project: ProjectWithNamespace, namespace: NamespaceRow): Promise<ProjectWithNamespace> {
  await withProjectLock(deps, project.id, async () => {
    const current = await findProjectByIdOrPath(deps.db, String(project.id));
    if (!current) throw new NotFound('Project');
    if (current.namespace_id === namespace.id) throw transferFailed(SAME_NAMESPACE);
    if (await pathTaken(deps.db, namespace.id, current.path)) throw transferFailed(PATH_TAKEN);
    const from = fullPathOf(current);
    // visibility_level_allowed_by_group?, else the group's level.
    const level = namespace.kind === 'group' ? Math.min(current.visibility_level, namespace.visibility_level) : current.visibility_level;
    try {
      await moveRepositories(deps, [{ projectId: current.id, from, to: `${namespace.full_path}/${current.path}` }], () =>
        deps.db.transaction(async (tx) => {
          if (await pathTaken(tx, namespace.id, current.path)) throw transferFailed(PATH_TAKEN);
          await tx('projects').where({ id: current.id }).update({ namespace_id: namespace.id, visibility_level: level, updated_at: now() });
          await announce(tx, { name: 'projectTransferred', projectId: current.id, oldPathWithNamespace: from });
        }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw transferFailed(PATH_TAKEN);
      if (err instanceof Invalid) throw transferFailed(CANNOT_MOVE); // a folder already there on disk
      throw err;
    }
  });
  const moved = await findProjectByIdOrPath(deps.db, String(project.id));
  if (!moved) throw new NotFound('Project');
  return moved;
}
