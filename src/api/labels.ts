// Project labels (GitLab 10.8 lib/api/labels.rb) and label subscriptions (the `labels` part
// of lib/api/subscriptions.rb). Every route needs a signed-in user (10.8's
// `before { authenticate! }`, so anonymous callers get 401 even on public projects); reading
// needs read access to the project, writing reporter access (admin_label). Permissions are
// checked before the parameters. Labels are named by title in the parameters (`name`), not
// in the path, except for subscriptions, which take an id or a title.
import { route, type Route } from './core/route.js';
import { ApiError, notFound } from '../http/errors.js';
import { coerceInteger, p, Param } from '../http/params.js';
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
  type LabelViewer,
} from '../services/labels/labels.js';
import type { LabelRow } from '../store/issuable_rows.js';

/** Grape's `Integer, allow_blank: true`: an empty value (or null) means "no priority". */
const priorityParam = () => new Param<number | null>((raw) => (raw === '' ? null : coerceInteger(raw))).nullable();

/** Renders a page of labels with their counts and the user's subscriptions, batch-loaded. */
async function presentLabels(db: Conn, viewer: LabelViewer & { user: UserRow }, rows: LabelRow[]): Promise<LabelEntity[]> {
  const ids = rows.map((r) => r.id);
  const [counts, subscribed] = await Promise.all([labelCounts(db, ids, viewer), subscribedLabelIds(db, viewer.user.id, ids)]);
  return rows.map((r) => labelEntity(r, counts.get(r.id)!, subscribed.has(r.id)));
}

const notModified = () => new ApiError(304, { message: '304 Not Modified' });

const LABEL = { schema: 'Label' } as const;

/** Subscribing and unsubscribing: 201 with the label, or 304 when it already was so. */
const subscription = (subscribed: boolean) =>
  route({
    method: 'POST',
    path: `/projects/:id/labels/:label_id/${subscribed ? 'subscribe' : 'unsubscribe'}`,
    auth: 'user',
    load: 'project',
    ability: 'read_label',
    summary: subscribed ? 'Subscribe to a label (by id or title)' : 'Unsubscribe from a label (by id or title)',
    response: LABEL,
    handler: async ({ deps, user, project, access, path }) => {
      const label = await labelOr404(deps.db, project.id, path.label_id);
      if (!(await setLabelSubscription(deps.db, label, user.id, subscribed))) throw notModified();
      return (await presentLabels(deps.db, { user, project, access }, [label]))[0];
    },
  });

async function labelOr404(db: Conn, projectId: number, key: string): Promise<LabelRow> {
  const label = await findLabelByIdOrTitle(db, projectId, key);
  if (!label) throw notFound('Label');
  return label;
}

export const labelRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/labels',
    auth: 'user',
    load: 'project',
    ability: 'read_label',
    summary: "List a project's labels",
    response: { ...LABEL, list: true },
    handler: async ({ ctx, deps, user, project, access }) =>
      presentLabels(deps.db, { user, project, access }, await paginate<LabelRow>(ctx, deps.db, labelsQuery(deps.db, project.id))),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/labels',
    auth: 'user',
    load: 'project',
    ability: 'admin_label',
    params: { name: p.string().required(), color: p.string().required(), description: p.string().nullable(), priority: priorityParam() },
    summary: 'Create a label',
    response: LABEL,
    handler: async ({ deps, user, project, access, params }) => (await presentLabels(deps.db, { user, project, access }, [await createLabel(deps.db, project.id, params)]))[0],
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/labels',
    auth: 'user',
    load: 'project',
    ability: 'admin_label',
    params: { name: p.string().required(), new_name: p.string(), color: p.string(), description: p.string().nullable(), priority: priorityParam() },
    rules: { atLeastOneOf: ['new_name', 'color', 'description', 'priority'] },
    summary: 'Update a label named by `name`',
    response: LABEL,
    handler: async ({ deps, user, project, access, params: v }) => {
      const label = await findLabelByTitle(deps.db, project.id, v.name);
      if (!label) throw notFound('Label not found'); // sic: 10.8 answers "404 Label not found Not Found"
      const updated = await updateLabel(deps.db, label, { newName: v.new_name, color: v.color, description: v.description, priority: v.priority });
      return (await presentLabels(deps.db, { user, project, access }, [updated]))[0];
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/labels',
    auth: 'user',
    load: 'project',
    ability: 'admin_label',
    params: { name: p.string().required() },
    summary: 'Delete a label named by `name`',
    handler: async ({ ctx, deps, project, params }) => {
      const label = await findLabelByTitle(deps.db, project.id, params.name);
      if (!label) throw notFound('Label');
      checkUnmodifiedSince(ctx, label.updated_at); // destroy_conditionally!
      await deleteLabel(deps.db, label);
    },
  }),

  // Not in 10.8 (later GitLab added them); python-gitlab 3.x reads and deletes a label this
  // way, by id or title. 10.8 clients never call them, so they change nothing for those.
  route({
    method: 'GET',
    path: '/projects/:id/labels/:label_id',
    auth: 'user',
    load: 'project',
    ability: 'read_label',
    summary: 'Get a label by id or title (later GitLab; python-gitlab 3.x)',
    response: LABEL,
    handler: async ({ deps, user, project, access, path }) => (await presentLabels(deps.db, { user, project, access }, [await labelOr404(deps.db, project.id, path.label_id)]))[0],
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/labels/:label_id',
    auth: 'user',
    load: 'project',
    ability: 'admin_label',
    summary: 'Delete a label by id or title (later GitLab; python-gitlab 3.x)',
    handler: async ({ ctx, deps, project, path }) => {
      const label = await labelOr404(deps.db, project.id, path.label_id);
      checkUnmodifiedSince(ctx, label.updated_at);
      await deleteLabel(deps.db, label);
    },
  }),

  subscription(true),
  subscription(false),
];
