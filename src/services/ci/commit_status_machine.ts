// GitLab 10.8's CommitStatus state machine (app/models/commit_status.rb) as the events
// POST /projects/:id/statuses/:sha fires (lib/api/commit_statuses.rb): `pending` is enqueue!,
// `running` is enqueue (allowed to do nothing) then run!, `success` success!, `failed`
// drop!, `canceled` cancel!. A refused bang event answers state_machines' own message,
// "Cannot transition status via :run from :running". Each step carries GitLab's timestamps
// (queued_at on enqueue, started_at on run, finished_at on a completion). Pure.
import type { BuildRow } from '../../store/ci_rows.js';
import type { CiStatus } from '../../store/ci_statuses.js';

export const POSTED_STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const;
export type PostedState = (typeof POSTED_STATES)[number];

type StatusEvent = 'enqueue' | 'run' | 'success' | 'drop' | 'cancel';

const EVENTS: Record<StatusEvent, { from: readonly CiStatus[]; to: CiStatus }> = {
  enqueue: { from: ['created', 'skipped', 'manual'], to: 'pending' },
  run: { from: ['pending'], to: 'running' },
  success: { from: ['created', 'pending', 'running'], to: 'success' },
  drop: { from: ['created', 'pending', 'running'], to: 'failed' },
  cancel: { from: ['created', 'pending', 'running', 'manual'], to: 'canceled' },
};

/** The events of each posted state; `strict` ones (GitLab's bang events) refuse loudly. */
const FIRED: Record<PostedState, { event: StatusEvent; strict: boolean }[]> = {
  pending: [{ event: 'enqueue', strict: true }],
  running: [
    { event: 'enqueue', strict: false },
    { event: 'run', strict: true },
  ],
  success: [{ event: 'success', strict: true }],
  failed: [{ event: 'drop', strict: true }],
  canceled: [{ event: 'cancel', strict: true }],
};

/** One status change and the columns it sets. */
interface Step {
  from: CiStatus;
  to: CiStatus;
  changes: Partial<BuildRow>;
}

export type Plan = { steps: Step[] } | { refused: string };

/** The steps that take a status at `current` to the posted `state`, or GitLab's refusal. */
export function planTransition(current: CiStatus, state: PostedState, stamp: string): Plan {
  const steps: Step[] = [];
  let at = current;
  for (const { event, strict } of FIRED[state]) {
    const { from, to } = EVENTS[event];
    if (!from.includes(at)) {
      if (strict) return { refused: `Cannot transition status via :${event} from :${at}` };
      continue;
    }
    steps.push({ from: at, to, changes: { status: to, updated_at: stamp, ...stampsOf(at, to, stamp) } });
    at = to;
  }
  return { steps };
}

function stampsOf(from: CiStatus, to: CiStatus, stamp: string): Partial<BuildRow> {
  if (to === 'pending') return { queued_at: stamp };
  if (to === 'running' && (from === 'created' || from === 'pending')) return { started_at: stamp };
  if (to === 'success' || to === 'failed' || to === 'canceled') return { finished_at: stamp };
  return {};
}
