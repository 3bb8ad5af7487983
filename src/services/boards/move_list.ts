// Moving a label list to another position (GitLab 10.8's Boards::Lists::MoveService): the
// lists between its old and new positions shift by one towards the gap it leaves, then it
// takes the new position. A move to where it is, below 0, or to the number of label lists or
// beyond is refused (false: the API answers 400 "List could not be moved!"). Only the moved
// list's updated_at changes, as 10.8's update_all leaves the others' alone.
import type { Conn } from '../../store/db.js';
import { LIST_TYPES, type ListRow } from '../../store/board_rows.js';
import { now } from '../../store/time.js';

/** Moves the list; false when the move is not a valid one. */
export async function moveLabelList(db: Conn, listId: number, newPosition: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const list = (await tx('lists').where({ id: listId }).first()) as ListRow | undefined;
    if (!list || list.list_type !== LIST_TYPES.label || list.position === null) return false;
    const movable = () => tx('lists').where({ board_id: list.board_id, list_type: LIST_TYPES.label });
    const counted = (await movable().count({ n: '*' }).first()) as { n: number | string };
    const old = Number(list.position);
    if (newPosition === old || newPosition < 0 || newPosition >= Number(counted.n)) return false;
    if (old < newPosition) {
      await movable().where('position', '>', old).where('position', '<=', newPosition).decrement('position', 1);
    } else {
      await movable().where('position', '>=', newPosition).where('position', '<', old).increment('position', 1);
    }
    await tx('lists').where({ id: list.id }).update({ position: newPosition, updated_at: now() });
    return true;
  });
}
