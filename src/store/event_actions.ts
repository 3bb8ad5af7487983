// The codes stored in the events table (GitLab 10.8's Event model): action numbers and the
// class names of targets. Stored codes live in store/ so that services (writing events),
// finders (filtering them) and entities (naming them) share one definition.

/** GitLab's Event action numbers. */
export const EVENT_ACTIONS = {
  created: 1,
  updated: 2,
  closed: 3,
  reopened: 4,
  pushed: 5,
  commented: 6,
  merged: 7,
  joined: 8,
  left: 9,
  destroyed: 10,
  expired: 11,
} as const;

export type EventAction = keyof typeof EVENT_ACTIONS;

/** The class names GitLab stores as an event's target_type. */
export type EventTargetType = 'Issue' | 'MergeRequest' | 'Milestone' | 'Note' | 'Project' | 'Snippet' | 'User';
