// Per-project internal ids (issue, merge request, milestone iids), allocated inside the
// caller's write transaction so a rolled-back create never burns or duplicates a number.
import type { Tx } from './db.js';

export type IidUsage = 'issues' | 'merge_requests' | 'milestones';

export async function nextIid(tx: Tx, projectId: number, usage: IidUsage): Promise<number> {
  const updated = await tx('internal_ids')
    .where({ project_id: projectId, usage })
    .increment('last_value', 1);
  if (updated === 0) {
    await tx('internal_ids').insert({ project_id: projectId, usage, last_value: 1 });
    return 1;
  }
  const row = await tx('internal_ids').where({ project_id: projectId, usage }).first('last_value');
  return row.last_value as number;
}
