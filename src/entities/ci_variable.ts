// GitLab 10.8's Entities::Variable: `key`, `value` and `protected` (a project's and a
// group's variables alike). Pure.
import type { VariableRow } from '../store/ci_rows.js';

export function variableEntity(v: Pick<VariableRow, 'key' | 'value' | 'protected'>) {
  return { key: v.key, value: v.value, protected: !!v.protected };
}
