// Issue boards as GitLab 10.8's API reads them: a parent's boards in id order, one board of
// it by id, and a board's label lists (10.8's `lists.destroyable`: the backlog and closed
// lists are never shown) in position order, each with its label, in one query — for a page of
// boards too, so rendering a page costs two queries whatever its size.
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import { LIST_TYPES, type BoardParent, type BoardRow, type LabelListRow } from '../store/board_rows.js';
import type { LabelRow } from '../store/issuable_rows.js';
import { storableId } from '../store/stored_values.js';

function parentColumn(parent: BoardParent): 'project_id' | 'group_id' {
  return parent.kind === 'project' ? 'project_id' : 'group_id';
}

export function boardsQuery(db: Conn, parent: BoardParent): Knex.QueryBuilder {
  return db('boards').where(parentColumn(parent), parent.id).orderBy('id');
}

export async function findBoard(db: Conn, parent: BoardParent, id: string | number): Promise<BoardRow | undefined> {
  const n = storableId(id);
  if (n === null) return undefined;
  return boardsQuery(db, parent).where('id', n).first();
}

const LIST_COLUMNS = ['lists.*', 'labels.title as label_title', 'labels.color as label_color', 'labels.description as label_description'];

/** The label lists of the boards, in their order (position, then id). */
function labelLists(db: Conn, boardIds: number[]): Knex.QueryBuilder {
  return db('lists')
    .join('labels', 'labels.id', 'lists.label_id')
    .whereIn('lists.board_id', boardIds)
    .where('lists.list_type', LIST_TYPES.label)
    .orderBy([{ column: 'lists.position' }, { column: 'lists.id' }])
    .select(LIST_COLUMNS);
}

/** A board's label lists (a query to page). */
export function labelListsQuery(db: Conn, boardId: number): Knex.QueryBuilder {
  return labelLists(db, [boardId]);
}

/** The label lists of a page of boards, by board id (one query). */
export async function labelListsOfBoards(db: Conn, boardIds: number[]): Promise<Map<number, LabelListRow[]>> {
  const byBoard = new Map<number, LabelListRow[]>(boardIds.map((id) => [id, []]));
  if (!boardIds.length) return byBoard;
  for (const row of (await labelLists(db, boardIds)) as LabelListRow[]) byBoard.get(row.board_id)?.push(row);
  return byBoard;
}

/** One label list of the board (10.8's `board.lists.destroyable.find`). */
export async function findLabelList(db: Conn, boardId: number, id: string | number): Promise<LabelListRow | undefined> {
  const n = storableId(id);
  if (n === null) return undefined;
  return labelLists(db, [boardId]).where('lists.id', n).first();
}

/**
 * A label a list of the parent's board may show (10.8's available_labels_for): for a project,
 * its own labels and those of its groups; for a group, the labels of the group and its
 * ancestors. Wharf keeps project labels only, so a group board finds none.
 */
export async function availableLabel(db: Conn, parent: BoardParent, id: number): Promise<LabelRow | undefined> {
  const n = storableId(id);
  if (n === null || parent.kind === 'group') return undefined;
  return db('labels').where({ id: n, project_id: parent.id }).first();
}
