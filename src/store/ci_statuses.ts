// GitLab 10.8's CI statuses (HasStatus): the stored codes of a pipeline and a job, the
// groups the state machine and the list scopes use, and the composite status of a set of
// jobs (Ci::Pipeline / Ci::Stage#status from their latest builds), rule by rule in GitLab's
// order, first match wins.

export const CI_STATUSES = ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual'] as const;
export type CiStatus = (typeof CI_STATUSES)[number];

export const COMPLETED: readonly CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];
export const ACTIVE: readonly CiStatus[] = ['pending', 'running'];
export const CANCELABLE: readonly CiStatus[] = ['created', 'pending', 'running'];

/** What the composite needs of one (latest, non-retried) job. */
export interface StatusFacts {
  status: CiStatus;
  allow_failure: boolean | number;
  when?: string;
}

/** The status of a group of jobs; `skipped` for none. */
export function compositeStatus(jobs: readonly StatusFacts[]): CiStatus {
  if (jobs.length === 0) return 'skipped';
  // Allowed-to-fail failures and cancels, and optional manual jobs, do not count.
  const ignored = (j: StatusFacts) => (!!j.allow_failure && (j.status === 'failed' || j.status === 'canceled')) || (!!j.allow_failure && j.status === 'manual');
  const counted = jobs.filter((j) => !ignored(j)).map((j) => j.status);
  const has = (s: CiStatus) => counted.includes(s);
  const only = (...set: CiStatus[]) => counted.length > 0 && counted.every((s) => set.includes(s));
  if (counted.length === 0) return 'success'; // all ignored: allowed failures only
  if (only('skipped') && counted.length < jobs.length) return 'success';
  if (only('skipped')) return 'skipped';
  if (only('success')) return 'success';
  if (only('created')) return 'created';
  if (only('success', 'skipped')) return 'success';
  if (only('success', 'skipped', 'canceled')) return 'canceled';
  if (only('created', 'skipped', 'pending')) return 'pending';
  if (has('running') || has('pending')) return 'running';
  if (has('manual')) return 'manual';
  if (has('created')) return 'running';
  return 'failed';
}
