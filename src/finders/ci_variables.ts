// The CI variables a job is given, as GitLab 10.8's Ci::Build#variables gathers the secret
// ones: the project's ancestor groups' variables from the outermost group inwards, then the
// project's own, a later key overriding an earlier one. `protected` variables are given only
// to jobs of a protected branch or tag (Project#protected_for?).
import type { Conn } from '../store/db.js';
import type { VariableRow } from '../store/ci_rows.js';

export interface JobVariable {
  key: string;
  value: string;
}

/** One query per owner kind; the result has each key once, in the order GitLab exports them. */
export async function variablesForJob(db: Conn, project: { id: number; namespace_id: number }, protectedRef: boolean): Promise<JobVariable[]> {
  const visible = (rows: VariableRow[]) => rows.filter((v) => protectedRef || !v.protected);
  const groupRows: VariableRow[] = await db('ci_group_variables as v')
    .join('namespace_ancestors as a', 'a.ancestor_id', 'v.group_id')
    .where('a.namespace_id', project.namespace_id)
    .orderBy([
      { column: 'a.depth', order: 'desc' },
      { column: 'v.id', order: 'asc' },
    ])
    .select('v.id', 'v.key', 'v.value', 'v.protected');
  const projectRows: VariableRow[] = await db('ci_variables').where({ project_id: project.id }).orderBy('id').select('id', 'key', 'value', 'protected');
  const byKey = new Map<string, string>();
  for (const v of [...visible(groupRows), ...visible(projectRows)]) {
    byKey.delete(v.key);
    byKey.set(v.key, v.value);
  }
  return [...byKey].map(([key, value]) => ({ key, value }));
}
