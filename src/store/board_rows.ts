// Row types of issue boards (migrations/20261202000055_boards.ts) and the list types they
// store: GitLab 10.8's List enum (backlog 0, label 1, closed 2).

/** A board belongs to one project or one group. */
export type BoardParent = { kind: 'project'; id: number } | { kind: 'group'; id: number };

export interface BoardRow {
  id: number;
  project_id: number | null;
  group_id: number | null;
  created_at: string;
  updated_at: string;
}

export const LIST_TYPES = { backlog: 0, label: 1, closed: 2 } as const;

export interface ListRow {
  id: number;
  board_id: number;
  label_id: number | null;
  list_type: number;
  position: number | null;
  created_at: string;
  updated_at: string;
}

/** A label list with the columns of its label that 10.8's LabelBasic shows. */
export interface LabelListRow extends ListRow {
  label_title: string;
  label_color: string;
  label_description: string | null;
}
