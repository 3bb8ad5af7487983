// Row types of the activity tables (events, to-dos), as the driver returns them. Their stored
// codes are in event_actions.ts and todo_actions.ts.

export interface EventRow {
  id: number;
  project_id: number | null;
  author_id: number;
  action: number;
  target_type: string | null;
  target_id: number | null;
  target_title: string | null;
  created_at: string;
  updated_at: string;
}

export interface TodoRow {
  id: number;
  user_id: number;
  project_id: number;
  author_id: number | null;
  target_type: 'Issue' | 'MergeRequest';
  target_id: number;
  note_id: number | null;
  action: number;
  state: 'pending' | 'done';
  created_at: string;
  updated_at: string;
}
