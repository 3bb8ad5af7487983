// Project milestones (GitLab 10.8 lib/api/project_milestones.rb + milestone_responses.rb).
// Every route needs a signed-in user (401 otherwise, even on public projects); reading needs
// read access to the project, writing developer access (admin_milestone), checked before
// the parameters. `:milestone_id` is the milestone's global id, scoped to the project; one
// that is not the project's answers `404 Not found` (a failed `find`).
import { route, type Route } from './core/route.js';
import { recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { Conn } from '../store/db.js';
import { milestoneEntity } from '../entities/milestone.js';
import { findMilestone, milestoneIssues, milestoneMergeRequests, milestonesQuery, MILESTONE_STATES } from '../finders/milestones.js';
import type { IssueRow, MilestoneRow, MergeRequestRow } from '../store/issuable_rows.js';
import { loadIssueExtras } from '../finders/issues.js';
import { issueBasic } from '../entities/issue.js';
import { createMilestone, deleteMilestone, updateMilestone } from '../services/milestones/milestones.js';
import { presentMergeRequestList } from './present_merge_requests.js';
import { storableId } from '../store/stored_values.js';

/** A `YYYY-MM-DD` date; empty clears it (Rails casts "" to nil). */
/** 10.8 declares the dates as strings and Rails 4.2 casts them to the date columns: what it cannot read is nil. */
const dateParam = () => p.castDate();

const ITEM = '/projects/:id/milestones/:milestone_id';
const MILESTONE = { schema: 'Milestone' } as const;
const milestoneId = { milestone_id: p.integer().required() };

async function milestoneOr404(db: Conn, projectId: number, id: number): Promise<MilestoneRow> {
  const milestone = await findMilestone(db, projectId, id);
  if (!milestone) throw recordNotFound();
  return milestone;
}

export const milestoneRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/milestones',
    auth: 'user',
    load: 'project',
    ability: 'read_milestone',
    params: { state: p.string().values(MILESTONE_STATES).default('all'), iids: p.array(p.integer()), search: p.anyString() },
    summary: "List a project's milestones",
    response: { ...MILESTONE, list: true },
    handler: async ({ ctx, deps, project, params: v }) => {
      const query = milestonesQuery(deps.db, project.id, { state: v.state as MilestoneRow['state'] | 'all', iids: v.iids ?? undefined, search: v.search ?? undefined });
      return (await paginate<MilestoneRow>(ctx, deps.db, query)).map(milestoneEntity);
    },
  }),

  route({
    method: 'GET',
    path: ITEM,
    auth: 'user',
    load: 'project',
    ability: 'read_milestone',
    params: milestoneId,
    summary: 'Get a milestone',
    response: MILESTONE,
    handler: async ({ deps, project, params }) => milestoneEntity(await milestoneOr404(deps.db, project.id, params.milestone_id)),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/milestones',
    auth: 'user',
    load: 'project',
    ability: 'admin_milestone',
    params: { title: p.string().required(), description: p.string().nullable(), due_date: dateParam(), start_date: dateParam() },
    summary: 'Create a milestone',
    response: MILESTONE,
    handler: async ({ deps, user, project, params: v }) =>
      milestoneEntity(await createMilestone(deps.db, project.id, { title: v.title, description: v.description, dueDate: v.due_date, startDate: v.start_date }, user.id)),
  }),

  route({
    method: 'PUT',
    path: ITEM,
    auth: 'user',
    load: 'project',
    ability: 'admin_milestone',
    params: {
      ...milestoneId,
      title: p.string(),
      state_event: p.string().values(['close', 'activate'] as string[]),
      description: p.string().nullable(),
      due_date: dateParam(),
      start_date: dateParam(),
    },
    // 10.8 leaves start_date out of this group: it cannot be changed alone.
    rules: { atLeastOneOf: ['title', 'description', 'due_date', 'state_event'] },
    summary: 'Update a milestone (state_event close/activate)',
    response: MILESTONE,
    handler: async ({ deps, user, project, params: v }) => {
      const milestone = await milestoneOr404(deps.db, project.id, v.milestone_id);
      const stateEvent = (v.state_event ?? undefined) as 'close' | 'activate' | undefined;
      const input = { title: v.title, description: v.description, dueDate: v.due_date, startDate: v.start_date, stateEvent };
      return milestoneEntity(await updateMilestone(deps.db, milestone, input, user.id));
    },
  }),

  // No declared milestone_id here in 10.8: a non-numeric one is simply not found.
  route({
    method: 'DELETE',
    path: ITEM,
    auth: 'user',
    load: 'project',
    ability: 'admin_milestone',
    summary: 'Delete a milestone',
    handler: async ({ deps, project, path }) => {
      const milestoneId = storableId(path.milestone_id);
      if (milestoneId === null) throw recordNotFound();
      await deleteMilestone(deps.db, await milestoneOr404(deps.db, project.id, milestoneId));
    },
  }),

  route({
    method: 'GET',
    path: `${ITEM}/issues`,
    auth: 'user',
    load: 'project',
    ability: 'read_milestone',
    params: milestoneId,
    summary: "A milestone's issues",
    response: { schema: 'Issue', list: true },
    handler: async ({ ctx, deps, user, project, params }) => {
      const query = milestoneIssues(deps.db, user, await milestoneOr404(deps.db, project.id, params.milestone_id));
      const rows = await paginate<IssueRow>(ctx, deps.db, query);
      const extras = await loadIssueExtras(deps.db, rows);
      return rows.map((row) => issueBasic(row, extras, deps.urls));
    },
  }),

  // The merge requests the user may read: none for those who may not (a guest of a private
  // project), as 10.8's finder answered.
  route({
    method: 'GET',
    path: `${ITEM}/merge_requests`,
    auth: 'user',
    load: 'project',
    ability: 'read_milestone',
    params: milestoneId,
    summary: "A milestone's merge requests",
    response: { schema: 'MergeRequestBasic', list: true },
    handler: async ({ ctx, deps, project, params, can }) => {
      const query = milestoneMergeRequests(deps.db, await milestoneOr404(deps.db, project.id, params.milestone_id));
      if (!can('read_merge_request')) query.whereRaw('1 = 0');
      return presentMergeRequestList(deps, await paginate<MergeRequestRow>(ctx, deps.db, query), false);
    },
  }),
];
