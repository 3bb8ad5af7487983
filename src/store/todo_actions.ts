// The codes stored in the todos table (GitLab 10.8's Todo model): action numbers and target
// types. Stored codes live in store/ so that services (creating to-dos), finders (filtering
// them) and entities (naming their action) share one definition.

export type TodoTargetType = 'Issue' | 'MergeRequest';

/** GitLab's Todo action numbers. */
export const TODO_ACTIONS = {
  assigned: 1,
  mentioned: 2,
  build_failed: 3,
  marked: 4,
  approval_required: 5,
  unmergeable: 6,
  directly_addressed: 7,
} as const;

export type TodoAction = keyof typeof TODO_ACTIONS;
