// Deleting a user, as GitLab's Users::DestroyService does it: their personal projects go with
// them, and the groups they alone own too when `hard_delete` is asked (otherwise the deletion is
// refused). Memberships and tokens go through the foreign keys. One transaction for the rows;
// the projects' repositories are moved into the trash before it (journalled, under their
// locks) and removed after it commits, or put back if it does not (repository_moves.ts).
import { deleteSnippetsOfAuthor } from '../snippets/snippets.js';
import type { Deps } from '../../deps.js';
import type { Conn } from '../../store/db.js';
import type { NamespaceRow, UserRow } from '../../store/rows.js';
import { Conflict } from '../../store/domain_errors.js';
import { OWNER } from '../../store/levels.js';
import { removeNamespaceDir } from '../repository/namespace_dirs.js';
import { deleteRepositoriesOf } from '../repository/moves.js';
import { removeDeployKeysOfProjects } from '../keys/deploy_keys.js';
import { deleteKeysOfUsers } from '../keys/keys.js';
import { announce } from '../notify.js';

const SOLE_OWNER_MESSAGE = 'You must transfer ownership or delete groups before you can remove user';

/** Groups where the user is the only (direct) owner. */
async function soloOwnedGroups(db: Conn, userId: number): Promise<NamespaceRow[]> {
  return db('namespaces as n')
    .select('n.*')
    .join('members as m', function () {
      this.on('m.source_id', '=', 'n.id').andOnVal('m.source_type', '=', 'group');
    })
    .where({ 'n.kind': 'group', 'm.user_id': userId })
    .where('m.access_level', '>=', OWNER)
    .whereNull('m.requested_at')
    .whereNotExists(
      db('members as o')
        .select(db.raw('1'))
        .whereRaw('o.source_id = n.id')
        .where('o.source_type', 'group')
        .where('o.access_level', '>=', OWNER)
        .whereNull('o.requested_at')
        .whereNot('o.user_id', userId),
    )
    .orderBy('n.id');
}

/** Removes the namespaces under `roots` (themselves included) with their projects. */
async function destroyNamespaces(tx: Conn, rootIds: number[]): Promise<void> {
  const rows: { namespace_id: number }[] = await tx('namespace_ancestors').distinct('namespace_id').whereIn('ancestor_id', rootIds);
  const namespaceIds = rows.map((r) => r.namespace_id);
  const projectIds = () => tx('projects').select('id').whereIn('namespace_id', namespaceIds);
  // Memberships and custom attributes point at projects and groups without a foreign key.
  await tx('members').where('source_type', 'project').whereIn('source_id', projectIds()).delete();
  await tx('custom_attributes').where('subject_type', 'project').whereIn('subject_id', projectIds()).delete();
  await removeDeployKeysOfProjects(tx, projectIds);
  await tx('projects').whereIn('namespace_id', namespaceIds).delete();
  await tx('members').where('source_type', 'group').whereIn('source_id', namespaceIds).delete();
  await tx('custom_attributes').where('subject_type', 'group').whereIn('subject_id', namespaceIds).delete();
  await tx('namespaces').whereIn('id', namespaceIds).delete();
}

/** Throws 409 when the user alone owns groups and `hardDelete` is not set. */
export async function deleteUser(deps: Deps, user: UserRow, opts: { hardDelete?: boolean } = {}): Promise<void> {
  const plan = async () => {
    const groups = opts.hardDelete ? await soloOwnedGroups(deps.db, user.id) : [];
    const roots = [...(await deps.db('namespaces').where({ kind: 'user', owner_id: user.id }).pluck('id')), ...groups.map((g) => g.id)];
    const rows: { id: number; path: string; full_path: string }[] = await deps
      .db('projects as p')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .whereIn('p.namespace_id', deps.db('namespace_ancestors').select('namespace_id').whereIn('ancestor_id', roots))
      .select('p.id', 'p.path', 'n.full_path');
    return rows.map((r) => ({ projectId: r.id, fullPath: `${r.full_path}/${r.path}` }));
  };
  const folders = await deleteRepositoriesOf(deps, plan, () =>
    deps.db.transaction(async (tx) => {
      const groups = await soloOwnedGroups(tx, user.id);
      if (groups.length && !opts.hardDelete) throw new Conflict(SOLE_OWNER_MESSAGE);
      const personal: NamespaceRow[] = await tx('namespaces').where({ kind: 'user', owner_id: user.id });
      const roots = [...personal, ...groups];
      // GitLab destroys a user's snippets (with their notes and award emoji) with them.
      await deleteSnippetsOfAuthor(tx, user.id);
      if (roots.length)
        await destroyNamespaces(
          tx,
          roots.map((n) => n.id),
        );
      await tx('custom_attributes').where({ subject_type: 'user', subject_id: user.id }).delete();
      await deleteKeysOfUsers(tx, [user.id]);
      await announce(tx, { name: 'userDestroyed', user });
      await tx('users').where({ id: user.id }).delete();
      // A subgroup's folder goes with its removed parent's.
      const paths = roots.map((n) => n.full_path);
      return paths.filter((p) => !paths.some((other) => p.toLowerCase().startsWith(`${other.toLowerCase()}/`)));
    }),
  );
  for (const folder of folders) {
    try {
      await removeNamespaceDir(deps.repos.root, folder);
    } catch (err) {
      deps.log.error({ err, folder }, 'cannot remove the folder of a deleted namespace');
    }
  }
}
