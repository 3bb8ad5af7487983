// Creating, changing and removing a project's or a group's CI variable, with GitLab 10.8's
// model rules (HasVariable, Ci::Variable, Ci::GroupVariable): the key is stripped, then must be
// present, at most 255 characters and only letters, digits and '_', and unique for its owner
// ("(KEY) has already been taken"); every failing rule is reported, in the model's order.
// `protected` arrives as text (Grape's String) and is cast as Rails casts a boolean column.
// The key never changes after creation (the API drops it from an update). Values are only
// stored and returned: never logged, never put into an error message.
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { Config } from '../../config.js';
import { sealValue } from './variable_values.js';
import type { VariableRow } from '../../store/ci_rows.js';
import { Invalid } from '../../store/domain_errors.js';
import { findVariable, variableTable, type VariableOwner } from '../../finders/ci_variable_lists.js';

const KEY_MAX = 255;
const KEY_FORMAT = /^[A-Za-z0-9_]+$/;

/** ActiveRecord 4.2's boolean cast of the text GitLab receives: these are false, any other
 * text true (an empty one, which Rails makes NULL and the column refuses, is taken as false). */
const RAILS_FALSE = new Set(['false', 'FALSE', 'f', 'F', '0', 'off', 'OFF', '']);

function castProtected(raw: string): boolean {
  return !RAILS_FALSE.has(raw);
}

function taken(key: string): Invalid {
  return new Invalid({ key: [`(${key}) has already been taken`] });
}

async function keyErrors(db: Conn, owner: VariableOwner, key: string): Promise<string[]> {
  const errors: string[] = [];
  if (key === '') errors.push("can't be blank");
  if (key.length > KEY_MAX) errors.push(`is too long (maximum is ${KEY_MAX} characters)`);
  if (!KEY_FORMAT.test(key)) errors.push("can contain only letters, digits and '_'.");
  if (key !== '' && (await findVariable(db, owner, key))) errors.push(`(${key}) has already been taken`);
  return errors;
}

export interface VariableInput {
  key: string;
  value: string;
  protected?: string;
}

/** Adds the variable; Invalid (400) with every broken rule of its key. */
/** The row as stored, but with its value in the clear (the caller answers with it). */
export async function createVariable(db: Conn, config: Pick<Config, 'serverSecret'>, owner: VariableOwner, input: VariableInput): Promise<VariableRow> {
  const key = input.key.trim();
  const { table, column } = variableTable(owner);
  try {
    return await db.transaction(async (tx) => {
      const errors = await keyErrors(tx, owner, key);
      if (errors.length) throw new Invalid({ key: errors });
      const row = { key, value: input.value, protected: input.protected === undefined ? false : castProtected(input.protected) };
      const id = await insertReturningId(tx, table, { [column]: owner.id, ...row, value: sealValue(config, row.value) });
      return { id, ...row };
    });
  } catch (err) {
    // Another request added the key between the check and the insert (another process).
    if (isUniqueViolation(err)) throw taken(key);
    throw err;
  }
}

/** Changes the value and/or `protected` of an existing variable (its key stays); `variable`'s value is in the clear, and so is the answer's. */
export async function updateVariable(
  db: Conn,
  config: Pick<Config, 'serverSecret'>,
  owner: VariableOwner,
  variable: VariableRow,
  changes: { value?: string; protected?: string },
): Promise<VariableRow> {
  const { table } = variableTable(owner);
  const update: Partial<Pick<VariableRow, 'value' | 'protected'>> = {};
  if (changes.value !== undefined) update.value = changes.value;
  if (changes.protected !== undefined) update.protected = castProtected(changes.protected);
  const stored = update.value === undefined ? update : { ...update, value: sealValue(config, update.value) };
  if (Object.keys(stored).length) await db(table).where({ id: variable.id }).update(stored);
  return { ...variable, ...update };
}

export async function deleteVariable(db: Conn, owner: VariableOwner, variable: VariableRow): Promise<void> {
  const { table } = variableTable(owner);
  await db(table).where({ id: variable.id }).delete();
}
