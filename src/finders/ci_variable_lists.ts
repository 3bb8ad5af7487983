// The CI variables of one owner as the variables APIs read them (GitLab 10.8's
// `project.variables` / `group.variables`): a project's rows of ci_variables, a group's of
// ci_group_variables, in the order they were added; one by its key (exact, case-sensitive).
// The runner's merged view of a job's variables is finders/ci_variables.ts.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { VariableRow } from '../store/ci_rows.js';

/** Whose variables: a project's or a group's. */
export type VariableOwner = { kind: 'project'; id: number } | { kind: 'group'; id: number };

/** The table and owner column of an owner's variables. */
export function variableTable(owner: VariableOwner): { table: string; column: string } {
  return owner.kind === 'project' ? { table: 'ci_variables', column: 'project_id' } : { table: 'ci_group_variables', column: 'group_id' };
}

/** The owner's variables, oldest first (a page of them through paginate). */
export function variablesQuery(db: Conn, owner: VariableOwner): Knex.QueryBuilder {
  const { table, column } = variableTable(owner);
  return db(table).where(column, owner.id).orderBy('id', 'asc').select('id', 'key', 'value', 'protected');
}

export async function findVariable(db: Conn, owner: VariableOwner, key: string): Promise<VariableRow | undefined> {
  const { table, column } = variableTable(owner);
  return db(table).where(column, owner.id).where('key', key).first('id', 'key', 'value', 'protected');
}
