// Looking projects up by id or full path, with their namespace.
import type { Conn } from '../store/db.js';
import type { NamespaceRow, ProjectRow, ProjectWithNamespace } from '../store/rows.js';

/** Digits are an id; anything else a URL-decoded full path (`group/sub/project`), case-insensitive. */
export async function findProjectByIdOrPath(db: Conn, idOrPath: string): Promise<ProjectWithNamespace | undefined> {
  let project: ProjectRow | undefined;
  if (/^\d+$/.test(idOrPath)) {
    project = await db('projects').where({ id: Number(idOrPath) }).first();
  } else {
    const slash = idOrPath.lastIndexOf('/');
    if (slash <= 0) return undefined;
    project = await db('projects as p')
      .select('p.*')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .whereRaw('lower(n.full_path) = ?', [idOrPath.slice(0, slash).toLowerCase()])
      .whereRaw('lower(p.path) = ?', [idOrPath.slice(slash + 1).toLowerCase()])
      .first();
  }
  if (!project) return undefined;
  const namespace: NamespaceRow = await db('namespaces').where({ id: project.namespace_id }).first();
  return { ...project, namespace };
}

export function fullPathOf(project: ProjectWithNamespace): string {
  return `${project.namespace.full_path}/${project.path}`;
}
