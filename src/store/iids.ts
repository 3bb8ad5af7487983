// Per-project internal ids (issue, merge request, milestone, deployment iids), allocated inside the
// caller's write transaction so a rolled-back create never burns or duplicates a number.
// One statement takes the next number, whatever else runs: the upsert creates the counter
// or bumps it under the row's lock, so two transactions (in one process or two, on SQLite
// or PostgreSQL) never read the same value.
import type { Tx } from './db.js';

export type IidUsage = 'issues' | 'merge_requests' | 'milestones' | 'deployments';

export async function nextIid(tx: Tx, projectId: number, usage: IidUsage): Promise<number> {
  const [row] = await tx('internal_ids')
    .insert({ project_id: projectId, usage, last_value: 1 })
    .onConflict(['project_id', 'usage'])
    .merge({ last_value: tx.raw('?? + 1', ['internal_ids.last_value']) })
    .returning('last_value');
  return Number(typeof row === 'object' ? row.last_value : row);
}
