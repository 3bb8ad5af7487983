// GitLab 10.8's lib/api/commit_statuses.rb: a commit's statuses (its pipelines' jobs and
// external statuses; latest only unless `all`, by ref, stage and name; paginated) and an
// external CI's status for a commit. Both need a signed-in user (Grape's `before {
// authenticate! }`); reading asks read_commit_status, posting create_commit_status, then a
// commit the repository lacks is `404 Commit Not Found`. Note 10.8 lists the pipelines whose
// sha equals the path's text, so a branch name finds the commit but lists nothing.
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import type { Deps } from '../deps.js';
import { commitStatusesQuery, findStatusWithSha } from '../finders/commit_statuses.js';
import { usersById } from '../finders/users.js';
import { commitStatusEntity, type StatusWithSha } from '../entities/commit_status.js';
import { POSTED_STATES, type PostedState } from '../services/ci/commit_status_machine.js';
import { postCommitStatus } from '../services/ci/post_commit_status.js';
import { repositoryOf } from './repo_context.js';
import { route, type Route } from './core/route.js';

/** Gitlab::Utils.to_boolean: true for true/t/yes/y/1/on, any case; anything else is false here. */
const paramIsTrue = (v: string | undefined) => v !== undefined && /^(true|t|yes|y|1|on)$/i.test(v);

async function presentStatuses(deps: Deps, rows: StatusWithSha[]) {
  const users = await usersById(
    deps.db,
    rows.map((r) => r.user_id),
  );
  return rows.map((r) => commitStatusEntity(r, users.get(r.user_id ?? -1), deps.urls));
}

export const commitStatusRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/statuses',
    auth: 'user',
    load: 'project',
    ability: 'read_commit_status',
    params: { ref: p.string(), stage: p.string(), name: p.string(), all: p.string() },
    summary: "Get a commit's statuses",
    response: { schema: 'CommitStatus', list: true },
    handler: async ({ ctx, deps, project, path, params }) => {
      if (!(await repositoryOf(deps, project).resolveCommit(path.sha))) throw notFound('Commit');
      const filters = { ref: params.ref, stage: params.stage, name: params.name, all: paramIsTrue(params.all) };
      const rows = await paginate<StatusWithSha>(ctx, deps.db, commitStatusesQuery(deps.db, project.id, path.sha, filters));
      return presentStatuses(deps, rows);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/statuses/:sha',
    auth: 'user',
    load: 'project',
    ability: 'create_commit_status',
    params: {
      state: p.string().required().values(POSTED_STATES),
      ref: p.string(),
      target_url: p.string(),
      description: p.string(),
      name: p.string(),
      context: p.string(),
      coverage: p.float(),
    },
    status: 201,
    summary: 'Post status to a commit',
    response: { schema: 'CommitStatus' },
    handler: async ({ deps, project, user, path, params }) => {
      const id = await postCommitStatus(deps, project, user, { ...params, state: params.state as PostedState, sha: path.sha });
      return (await presentStatuses(deps, [(await findStatusWithSha(deps.db, id))!]))[0];
    },
  }),
];
