// Deleting a label list (GitLab 10.8's Boards::Lists::DestroyService): the label lists after
// it move up by one, then it goes. The backlog and closed lists are never deleted (the API
// never finds them: it looks among label lists only).
import type { Conn } from '../../store/db.js';
import { LIST_TYPES } from '../../store/board_rows.js';

export async function destroyLabelList(db: Conn, listId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const list = await tx('lists').where({ id: listId, list_type: LIST_TYPES.label }).first();
    if (!list) return;
    await tx('lists').where({ board_id: list.board_id, list_type: LIST_TYPES.label }).where('position', '>', list.position).decrement('position', 1);
    await tx('lists').where({ id: list.id }).delete();
  });
}
