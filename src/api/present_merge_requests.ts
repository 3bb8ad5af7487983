// Rendering merge requests in a response: GitLab's lazy merge status check first (a service:
// it may test-merge and store the answer), then the extras of the page from the finder (one
// query per kind) and the viewer's subscriptions, then the pure entities.
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import { loadMergeRequestExtras, maintainerPushOf } from '../finders/merge_requests.js';
import type { MergeRequestRow } from '../store/issuable_rows.js';
import { ensureMergeStatus } from '../services/merge_requests/merge_status.js';
import { subscriptionsFor } from '../services/issuables/subscriptions.js';
import { mergeRequestBasic, mergeRequestEntity, mergeRequestSimple } from '../entities/merge_request.js';
import { metricsPipelinesOf } from '../finders/merge_request_pipelines.js';

/** Subscription of each merge request for the viewer: explicit choice, else participation. */
async function subscriptionsOf(deps: Deps, rows: MergeRequestRow[], user: UserRow | null): Promise<Map<number, boolean>> {
  if (!user) return new Map();
  const targets = rows.map((r) => ({
    type: 'MergeRequest' as const,
    id: r.id,
    authorId: r.author_id,
    assigneeIds: r.assignee_id === null ? [] : [r.assignee_id],
    title: r.title,
    description: r.description,
  }));
  return subscriptionsFor(deps.db, user, 'MergeRequest', targets);
}

/**
 * Full MergeRequest entities of these rows for the viewer (single responses, todo targets),
 * each after GitLab's lazy merge status check.
 */
export async function presentMergeRequests(deps: Deps, rows: MergeRequestRow[], user: UserRow | null): Promise<Record<string, unknown>[]> {
  const checked: MergeRequestRow[] = [];
  for (const r of rows) checked.push(await ensureMergeStatus(deps, r));
  const [extras, subscriptions] = await Promise.all([loadMergeRequestExtras(deps.db, checked), subscriptionsOf(deps, checked, user)]);
  const maintainerPush = await maintainerPushOf(deps.db, checked, extras);
  const metrics = await metricsPipelinesOf(deps.db, checked);
  return checked.map((r) =>
    mergeRequestEntity(r, extras, deps.urls, {
      subscribed: subscriptions.get(r.id) ?? false,
      allowMaintainerToPush: maintainerPush.get(r.id),
      metricsPipeline: metrics.get(r),
    }),
  );
}

/**
 * Basic (or simple) entities of a page of rows: one batch of extras. MergeRequestBasic's
 * merge_status ran check_if_can_be_merged too, which only acts on 'unchecked' rows: those
 * are checked here, the others shown as stored.
 */
export async function presentMergeRequestList(deps: Deps, page: MergeRequestRow[], simple: boolean): Promise<Record<string, unknown>[]> {
  const extras = await loadMergeRequestExtras(deps.db, page, { simple });
  if (simple) return page.map((r) => mergeRequestSimple(r, extras, deps.urls));
  const rows: MergeRequestRow[] = [];
  for (const r of page) rows.push(r.state === 'opened' && r.merge_status === 'unchecked' ? await ensureMergeStatus(deps, r) : r);
  const maintainerPush = await maintainerPushOf(deps.db, rows, extras);
  return rows.map((r) => mergeRequestBasic(r, extras, deps.urls, maintainerPush.get(r.id)));
}
