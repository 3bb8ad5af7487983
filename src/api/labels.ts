// Project labels (GitLab 10.8 lib/api/labels.rb) and label subscriptions (the `labels` part
// of lib/api/subscriptions.rb). Every route needs a signed-in user (10.8's
// `before { authenticate! }`, so anonymous callers get 401 even on public projects); reading
// needs read access to the project, writing reporter access (admin_label). Permissions are
// checked before the parameters. Labels are named by title in the parameters (`name`), not
// in the path, except for subscriptions, which take an id or a title.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { loadProject } from './loaders.js';
import { requireUser } from '../http/auth.js';
import { ApiError, notFound } from '../http/errors.js';
import { coerceInteger, p, Param, parse } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { labelEntity, type LabelEntity } from '../entities/label.js';
import {
  createLabel,
  deleteLabel,
  findLabelByIdOrTitle,
  findLabelByTitle,
  labelCounts,
  labelsQuery,
  setLabelSubscription,
  subscribedLabelIds,
  updateLabel,
  type LabelRow,
} from '../services/labels.js';

/** Grape's `Integer, allow_blank: true`: an empty value means "no priority". */
const priorityParam = () => new Param<number | null>((raw) => (raw === '' ? null : coerceInteger(raw)));

/** Renders a page of labels with their counts and the user's subscriptions, batch-loaded. */
export async function presentLabels(db: Conn, user: UserRow, rows: LabelRow[]): Promise<LabelEntity[]> {
  const ids = rows.map((r) => r.id);
  const [counts, subscribed] = await Promise.all([labelCounts(db, ids, user), subscribedLabelIds(db, user.id, ids)]);
  return rows.map((r) => labelEntity(r, counts.get(r.id)!, subscribed.has(r.id)));
}

const notModified = () => new ApiError(304, { message: '304 Not Modified' });

export function labelsRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  router.get('/projects/:id/labels', async (ctx) => {
    const user = requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('read_label');
    const rows = await paginate<LabelRow>(ctx, db, labelsQuery(db, project.id));
    ctx.body = await presentLabels(db, user, rows);
  });

  router.post('/projects/:id/labels', async (ctx) => {
    const user = requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_label');
    const v = parse(ctx, {
      name: p.string().required(),
      color: p.string().required(),
      description: p.string(),
      priority: priorityParam(),
    });
    const label = await createLabel(db, project.id, v);
    ctx.status = 201;
    [ctx.body] = await presentLabels(db, user, [label]);
  });

  router.put('/projects/:id/labels', async (ctx) => {
    const user = requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_label');
    const v = parse(
      ctx,
      { name: p.string().required(), new_name: p.string(), color: p.string(), description: p.string(), priority: priorityParam() },
      { atLeastOneOf: ['new_name', 'color', 'description', 'priority'] },
    );
    const label = await findLabelByTitle(db, project.id, v.name);
    if (!label) throw notFound('Label not found'); // sic: 10.8 answers "404 Label not found Not Found"
    const updated = await updateLabel(db, label, { newName: v.new_name, color: v.color, description: v.description, priority: v.priority });
    [ctx.body] = await presentLabels(db, user, [updated]);
  });

  router.delete('/projects/:id/labels', async (ctx) => {
    requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_label');
    const v = parse(ctx, { name: p.string().required() });
    const label = await findLabelByTitle(db, project.id, v.name);
    if (!label) throw notFound('Label');
    checkUnmodifiedSince(ctx, label.updated_at); // destroy_conditionally!
    await deleteLabel(db, label);
    ctx.status = 204;
  });

  // Not in 10.8 (later GitLab added them); python-gitlab 3.x reads and deletes a label this
  // way, by id or title. 10.8 clients never call them, so they change nothing for those.
  router.get('/projects/:id/labels/:label_id', async (ctx) => {
    const user = requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('read_label');
    const label = await findLabelByIdOrTitle(db, project.id, ctx.params.label_id);
    if (!label) throw notFound('Label');
    [ctx.body] = await presentLabels(db, user, [label]);
  });

  router.delete('/projects/:id/labels/:label_id', async (ctx) => {
    requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('admin_label');
    const label = await findLabelByIdOrTitle(db, project.id, ctx.params.label_id);
    if (!label) throw notFound('Label');
    checkUnmodifiedSince(ctx, label.updated_at);
    await deleteLabel(db, label);
    ctx.status = 204;
  });

  const subscription = (subscribed: boolean) => async (ctx: Koa.Context) => {
    const user = requireUser(ctx);
    const { project, authorize } = await loadProject(ctx, deps);
    authorize('read_label');
    const label = await findLabelByIdOrTitle(db, project.id, ctx.params.label_id);
    if (!label) throw notFound('Label');
    if (!(await setLabelSubscription(db, label, user.id, subscribed))) throw notModified();
    ctx.status = 201;
    [ctx.body] = await presentLabels(db, user, [label]);
  };
  router.post('/projects/:id/labels/:label_id/subscribe', subscription(true));
  router.post('/projects/:id/labels/:label_id/unsubscribe', subscription(false));

  return router;
}
