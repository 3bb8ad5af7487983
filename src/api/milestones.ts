// Project milestones (GitLab 10.8 lib/api/project_milestones.rb + milestone_responses.rb).
// Every route needs a signed-in user (401 otherwise, even on public projects); reading needs
// read access to the project, writing developer access (admin_milestone), checked before
// the parameters. `:milestone_id` is the milestone's global id, scoped to the project; one
// that is not the project's answers `404 Not found` (a failed `find`).
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { loadProject } from './loaders.js';
import { requireUser } from '../http/auth.js';
import { recordNotFound } from '../http/errors.js';
import { coerceDate, p, Param, parseValues, rawParams, type Rules, type Schema } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { ProjectAbility } from '../policy/can.js';
import { milestoneEntity } from '../entities/milestone.js';
import { findMilestone, milestoneIssues, milestoneMergeRequests, milestonesQuery, MILESTONE_STATES, type MilestoneRow } from '../finders/milestones.js';
import { createMilestone, deleteMilestone, updateMilestone } from '../services/milestones.js';
import { canReadMergeRequests } from '../policy/merge_requests.js';
import { presentMergeRequestList } from '../entities/merge_request.js';
import type { MergeRequestRow } from '../finders/merge_requests.js';

/** A `YYYY-MM-DD` date; empty clears it (Rails casts "" to nil). */
const dateParam = () => new Param<string | null>((raw) => (raw === '' ? null : coerceDate(raw)));

const ITEM = '/projects/:id/milestones/:milestone_id';

/** Loads the project, checks `ability`, then parses `schema` with the path's milestone_id. */
async function prepare<S extends Schema>(ctx: Koa.Context, deps: Deps, ability: ProjectAbility, schema: S, rules?: Rules) {
  const user = requireUser(ctx);
  const { project, access, authorize } = await loadProject(ctx, deps);
  authorize(ability);
  const raw = ctx.params.milestone_id === undefined ? rawParams(ctx) : { ...rawParams(ctx), milestone_id: ctx.params.milestone_id };
  return { project, access, user, v: parseValues(raw, schema, rules) };
}

async function milestoneOr404(deps: Deps, projectId: number, id: number): Promise<MilestoneRow> {
  const milestone = await findMilestone(deps.db, projectId, id);
  if (!milestone) throw recordNotFound();
  return milestone;
}

export function milestonesRouter(deps: Deps): Router {
  const router = new Router();
  const db = deps.db;

  router.get('/projects/:id/milestones', async (ctx) => {
    const { project, v } = await prepare(ctx, deps, 'read_milestone', {
      state: p.string().values(MILESTONE_STATES).default('all'),
      iids: p.array(p.integer()),
      search: p.string(),
    });
    const query = milestonesQuery(db, project.id, { state: v.state as MilestoneRow['state'] | 'all', iids: v.iids ?? undefined, search: v.search ?? undefined });
    const rows = await paginate<MilestoneRow>(ctx, db, query);
    ctx.body = rows.map(milestoneEntity);
  });

  router.get(ITEM, async (ctx) => {
    const { project, v } = await prepare(ctx, deps, 'read_milestone', { milestone_id: p.integer().required() });
    ctx.body = milestoneEntity(await milestoneOr404(deps, project.id, v.milestone_id));
  });

  router.post('/projects/:id/milestones', async (ctx) => {
    const { project, user, v } = await prepare(ctx, deps, 'admin_milestone', {
      title: p.string().required(),
      description: p.string(),
      due_date: dateParam(),
      start_date: dateParam(),
    });
    const milestone = await createMilestone(db, project.id, {
      title: v.title ?? '',
      description: v.description,
      dueDate: v.due_date,
      startDate: v.start_date,
    }, user.id);
    ctx.status = 201;
    ctx.body = milestoneEntity(milestone);
  });

  router.put(ITEM, async (ctx) => {
    const { project, user, v } = await prepare(
      ctx,
      deps,
      'admin_milestone',
      {
        milestone_id: p.integer().required(),
        title: p.string(),
        state_event: p.string().values(['close', 'activate'] as string[]),
        description: p.string(),
        due_date: dateParam(),
        start_date: dateParam(),
      },
      // 10.8 leaves start_date out of this group: it cannot be changed alone.
      { atLeastOneOf: ['title', 'description', 'due_date', 'state_event'] },
    );
    const milestone = await milestoneOr404(deps, project.id, v.milestone_id);
    ctx.body = milestoneEntity(
      await updateMilestone(db, milestone, {
        title: v.title,
        description: v.description,
        dueDate: v.due_date,
        startDate: v.start_date,
        stateEvent: (v.state_event ?? undefined) as 'close' | 'activate' | undefined,
      }, user.id),
    );
  });

  // No declared milestone_id here in 10.8: a non-numeric one is simply not found.
  router.delete(ITEM, async (ctx) => {
    const { project } = await prepare(ctx, deps, 'admin_milestone', {});
    const raw = String(ctx.params.milestone_id);
    if (!/^\d{1,15}$/.test(raw)) throw recordNotFound();
    await deleteMilestone(db, await milestoneOr404(deps, project.id, Number(raw)));
    ctx.status = 204;
  });

  router.get(`${ITEM}/issues`, async (ctx) => {
    const { project, v } = await prepare(ctx, deps, 'read_milestone', { milestone_id: p.integer().required() });
    const milestone = await milestoneOr404(deps, project.id, v.milestone_id);
    ctx.body = await milestoneIssues(ctx, db, deps.urls, milestone);
  });

  // The merge requests the user may read: none for those who may not (a guest of a private
  // project), as 10.8's finder answered.
  router.get(`${ITEM}/merge_requests`, async (ctx) => {
    const { project, access, user, v } = await prepare(ctx, deps, 'read_milestone', { milestone_id: p.integer().required() });
    const milestone = await milestoneOr404(deps, project.id, v.milestone_id);
    const query = milestoneMergeRequests(db, milestone);
    if (!canReadMergeRequests(user, project, access)) query.whereRaw('1 = 0');
    const rows = await paginate<MergeRequestRow>(ctx, db, query);
    ctx.body = await presentMergeRequestList(deps, rows, false);
  });

  return router;
}
