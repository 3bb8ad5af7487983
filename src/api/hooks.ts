// Project hooks (GitLab 10.8 lib/api/project_hooks.rb: masters, `admin_project`) and system
// hooks (lib/api/system_hooks.rb: admins). The token is write-only: no response carries it.
// A hook that is missing answers `404 Not found` (ActiveRecord's find), except deleting a
// system hook (`404 System hook Not Found`). A project hook with a bad URL is 422
// `{"error": "Invalid url given"}`; a system hook's is a 400 validation error. `GET /hooks/:id`
// fires a test event at the system hook (as 10.8 does, in the request) and answers its data.
import { route, type Route } from './core/route.js';
import { ApiError, notFound, recordNotFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { Invalid } from '../store/domain_errors.js';
import type { WebHookRow } from '../store/hook_rows.js';
import { hookEntity, projectHookEntity } from '../entities/hook.js';
import { findHook, hooksQuery } from '../finders/hooks.js';
import { createHook, deleteHook, updateHook, validHookUrl, type HookInput } from '../services/webhooks/hooks.js';
import { WEB_HOOK_JOB, type WebHookJobPayload } from '../services/webhooks/triggers.js';

const projectHookParams = {
  url: p.string().required(),
  push_events: p.boolean(),
  issues_events: p.boolean(),
  confidential_issues_events: p.boolean(),
  merge_requests_events: p.boolean(),
  tag_push_events: p.boolean(),
  note_events: p.boolean(),
  confidential_note_events: p.boolean(),
  job_events: p.boolean(),
  pipeline_events: p.boolean(),
  wiki_page_events: p.boolean(),
  enable_ssl_verification: p.boolean(),
  token: p.string(),
};

const systemHookParams = {
  url: p.string().required(),
  token: p.string(),
  push_events: p.boolean(),
  tag_push_events: p.boolean(),
  merge_requests_events: p.boolean(),
  enable_ssl_verification: p.boolean(),
};

/** The parameters given (declared_params(include_missing: false)). */
function given(params: Record<string, unknown>): HookInput {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && k !== 'id' && k !== 'hook_id') out[k] = v;
  return out as HookInput;
}

/** A project hook's save failure, as 10.8 answers it. */
async function savingProjectHook(save: () => Promise<WebHookRow>): Promise<WebHookRow> {
  try {
    return await save();
  } catch (err) {
    if (err instanceof Invalid) {
      if (err.fields.url) throw new ApiError(422, { error: 'Invalid url given' });
      throw notFound(`Project hook {:token=>["is invalid"]}`);
    }
    throw err;
  }
}

async function projectHookOr404(db: Parameters<typeof findHook>[0], projectId: number, id: number): Promise<WebHookRow> {
  const hook = await findHook(db, 'ProjectHook', projectId, id);
  if (!hook) throw recordNotFound();
  return hook;
}

/** The test event 10.8 sends from `GET /hooks/:id`. */
const TEST_EVENT = { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' };

export const hookRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/hooks',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    summary: "List a project's hooks",
    handler: async ({ ctx, deps, project }) => (await paginate<WebHookRow>(ctx, deps.db, hooksQuery(deps.db, 'ProjectHook', project.id))).map(projectHookEntity),
  }),

  route({
    method: 'GET',
    path: '/projects/:id/hooks/:hook_id',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { hook_id: p.integer().required() },
    summary: 'Get a project hook',
    handler: async ({ deps, project, params }) => projectHookEntity(await projectHookOr404(deps.db, project.id, params.hook_id)),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/hooks',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: projectHookParams,
    summary: 'Add a hook to a project',
    handler: async ({ deps, project, params }) => {
      if (!validHookUrl(params.url)) throw new ApiError(422, { error: 'Invalid url given' });
      return projectHookEntity(await savingProjectHook(() => createHook(deps.db, 'ProjectHook', project.id, given(params))));
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/hooks/:hook_id',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { hook_id: p.integer().required(), ...projectHookParams },
    summary: 'Change a project hook',
    handler: async ({ deps, project, params }) => {
      const hook = await projectHookOr404(deps.db, project.id, params.hook_id);
      return projectHookEntity(await savingProjectHook(() => updateHook(deps.db, hook, given(params))));
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/hooks/:hook_id',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { hook_id: p.integer().required() },
    summary: 'Delete a project hook',
    handler: async ({ deps, project, params }) => {
      await deleteHook(deps.db, await projectHookOr404(deps.db, project.id, params.hook_id));
    },
  }),

  route({
    method: 'GET',
    path: '/hooks',
    auth: 'admin',
    summary: 'List the system hooks',
    handler: async ({ ctx, deps }) => (await paginate<WebHookRow>(ctx, deps.db, hooksQuery(deps.db, 'SystemHook', null))).map(hookEntity),
  }),

  route({
    method: 'POST',
    path: '/hooks',
    auth: 'admin',
    params: systemHookParams,
    summary: 'Add a system hook',
    handler: async ({ deps, params }) => hookEntity(await createHook(deps.db, 'SystemHook', null, given(params))),
  }),

  route({
    method: 'GET',
    path: '/hooks/:id',
    auth: 'admin',
    params: { id: p.integer().required() },
    summary: 'Send a test event to a system hook',
    handler: async ({ deps, params }) => {
      const hook = await findHook(deps.db, 'SystemHook', null, params.id);
      if (!hook) throw recordNotFound();
      const payload: WebHookJobPayload = { hookId: hook.id, hookName: 'system_hooks', event: { kind: 'data', data: TEST_EVENT } };
      await deps.jobs.perform(WEB_HOOK_JOB, payload, { maxAttempts: 1 });
      return TEST_EVENT;
    },
  }),

  route({
    method: 'DELETE',
    path: '/hooks/:id',
    auth: 'admin',
    params: { id: p.integer().required() },
    summary: 'Delete a system hook',
    handler: async ({ deps, params }) => {
      const hook = await findHook(deps.db, 'SystemHook', null, params.id);
      if (!hook) throw notFound('System hook');
      await deleteHook(deps.db, hook);
    },
  }),
];
