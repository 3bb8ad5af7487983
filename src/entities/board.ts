// GitLab 10.8's Board and List entities. A list shows its id, its label as LabelBasic (id,
// name, color, description) and its position; a board its id, its project as
// BasicProjectDetails (null for a group's board) and its label lists only (10.8's
// `lists.destroyable`: the backlog and closed lists are not shown).
import type { LabelListRow } from '../store/board_rows.js';

export interface ListEntity {
  id: number;
  label: { id: number; name: string; color: string; description: string | null };
  position: number | null;
}

export interface BoardEntity {
  id: number;
  project: Record<string, unknown> | null;
  lists: ListEntity[];
}

export function listEntity(row: LabelListRow): ListEntity {
  return {
    id: row.id,
    label: { id: row.label_id!, name: row.label_title, color: row.label_color, description: row.label_description },
    position: row.position === null ? null : Number(row.position),
  };
}

/** `project`: the board's project, already rendered as BasicProjectDetails (null for a group's board). */
export function boardEntity(board: { id: number }, project: Record<string, unknown> | null, lists: readonly LabelListRow[]): BoardEntity {
  return { id: board.id, project, lists: lists.map(listEntity) };
}
