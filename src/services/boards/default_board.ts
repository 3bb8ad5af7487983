// The default board of a project or a group (GitLab 10.8's Boards::ListService and
// Boards::CreateService): a parent without a board gets one when its boards are first read,
// with its backlog and closed lists. GitLab creates it when someone first opens the board
// page; Wharf has no pages, so the API's first read of the parent's boards does it instead.
// CE allows one board per parent: a parent that has it is left alone, and the unique parent
// column keeps two first reads from making two.
import type { Conn } from '../../store/db.js';
import { LIST_TYPES, type BoardParent } from '../../store/board_rows.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';

function parentRow(parent: BoardParent): { project_id: number } | { group_id: number } {
  return parent.kind === 'project' ? { project_id: parent.id } : { group_id: parent.id };
}

/** Creates the parent's board, with its backlog and closed lists, unless it has one. */
export async function ensureDefaultBoard(db: Conn, parent: BoardParent): Promise<void> {
  if (await db('boards').where(parentRow(parent)).first('id')) return;
  await db.transaction(async (tx) => {
    if (await tx('boards').where(parentRow(parent)).first('id')) return;
    const stamp = now();
    const boardId = await insertReturningId(tx, 'boards', { ...parentRow(parent), created_at: stamp, updated_at: stamp });
    const list = (listType: number) => ({ board_id: boardId, list_type: listType, label_id: null, position: null, created_at: stamp, updated_at: stamp });
    await tx('lists').insert([list(LIST_TYPES.backlog), list(LIST_TYPES.closed)]);
  });
}
