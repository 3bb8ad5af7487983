// A new label list on a board (GitLab 10.8's Boards::Lists::CreateService): it goes after the
// board's last label list (the highest position plus one, or 0 on a board without one). The
// label must be one the board may show (finders/boards.ts availableLabel; 10.8's find raises
// `404 Not found` when it is not) and not already have a list on the board (the model's
// uniqueness of label_id per board: 400 `{"label_id": ["has already been taken"]}`).
import type { Conn } from '../../store/db.js';
import { Invalid, RecordNotFound } from '../../store/domain_errors.js';
import { LIST_TYPES, type BoardParent, type BoardRow } from '../../store/board_rows.js';
import { insertReturningId } from '../../store/ids.js';
import { now } from '../../store/time.js';
import { availableLabel } from '../../finders/boards.js';

/** Creates the list; its id. */
export async function createLabelList(db: Conn, parent: BoardParent, board: BoardRow, labelId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const label = await availableLabel(tx, parent, labelId);
    if (!label) throw new RecordNotFound();
    if (await tx('lists').where({ board_id: board.id, label_id: label.id }).first('id')) throw new Invalid({ label_id: ['has already been taken'] });
    const last = (await tx('lists').where({ board_id: board.id, list_type: LIST_TYPES.label }).max({ position: 'position' }).first()) as { position: number | null } | undefined;
    const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
    const stamp = now();
    return insertReturningId(tx, 'lists', { board_id: board.id, label_id: label.id, list_type: LIST_TYPES.label, position, created_at: stamp, updated_at: stamp });
  });
}
