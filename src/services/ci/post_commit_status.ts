// GitLab 10.8's POST /projects/:id/statuses/:sha (lib/api/commit_statuses.rb): the commit must
// exist (404 Commit Not Found); `ref` defaults to the first branch holding it (404 References
// for commit Not Found when none does); the project's newest pipeline of that ref and commit
// is used, or an `external` one is created; the caller's running or pending
// GenericCommitStatus of that name and ref in it is moved, or a new one (stage `external`,
// stage_idx 1000000) is, announced as jobsCreated. target_url, description and coverage are saved
// first, so a refused transition (400) keeps them, as in 10.8. Then, as CommitStatus'
// after_transition does, each change is announced (jobStatusChanged) and the pipeline follows:
// processed (with 10.8's update_retried, which retires an older status of the same name) when
// the status completed, its status refreshed otherwise. One transaction; the git reads come
// before it. (10.8 created the pipeline before validating the status; Wharf validates first.)
import type { Deps } from '../../deps.js';
import { gitdirOf } from '../../finders/projects.js';
import { RepoReader } from '../../git/reader.js';
import { refNamesContaining } from '../../git/ref_contains.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import type { Conn } from '../../store/db.js';
import { Invalid, NotFound, Rejected } from '../../store/domain_errors.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { blank, statusErrors } from './commit_status_checks.js';
import { planTransition, type PostedState } from './commit_status_machine.js';
import { GENERIC_STATUS_TYPE, insertExternalStatus, pipelineFor, updateRetried } from './external_statuses.js';
import { processPipeline, updatePipelineStatus } from './process_pipeline.js';
import { announce } from '../notify.js';

export interface StatusPost {
  /** The commit as the path names it (a sha, or any revision). */
  sha: string;
  state: PostedState;
  ref?: string;
  name?: string;
  context?: string;
  target_url?: string;
  description?: string;
  coverage?: number;
}

/** Posts the status; answers its id. Throws NotFound, Invalid, or Rejected (a refused transition). */
export async function postCommitStatus(deps: Deps, project: ProjectWithNamespace, user: UserRow, post: StatusPost): Promise<number> {
  const gitdir = gitdirOf(deps.repos, project);
  const sha = await new RepoReader(gitdir).resolveCommit(post.sha);
  if (!sha) throw new NotFound('Commit');
  const ref = post.ref ?? (await refNamesContaining(gitdir, sha, 'branch'))[0];
  if (ref === undefined) throw new NotFound('References for commit');
  const name = post.name ?? post.context ?? 'default';
  const errors = statusErrors({ name, ref, targetUrl: post.target_url });
  if (Object.keys(errors).length) throw new Invalid(errors);
  const optional: Partial<BuildRow> = {};
  if (!blank(post.target_url)) optional.target_url = post.target_url;
  if (!blank(post.description)) optional.description = post.description;
  if (post.coverage !== undefined) optional.coverage = post.coverage;

  const outcome = await deps.db.transaction(async (tx) => {
    const pipeline = await pipelineFor(tx, project.id, user.id, sha, ref);
    let status: BuildRow | undefined = await tx('ci_builds')
      .where({ project_id: project.id, pipeline_id: pipeline.id, name, ref, user_id: user.id, type: GENERIC_STATUS_TYPE })
      .whereIn('status', ['running', 'pending'])
      .orderBy('id')
      .first();
    if (!status) {
      status = await insertExternalStatus(tx, pipeline, { name, ref, userId: user.id });
      await announce(tx, { name: 'jobsCreated', builds: [{ ...status }] });
    }
    if (Object.keys(optional).length) {
      await tx('ci_builds')
        .where({ id: status.id })
        .update({ ...optional, updated_at: now() });
      Object.assign(status, optional);
    }
    const plan = planTransition(status.status, post.state, now());
    if ('refused' in plan) return { id: status.id, refused: plan.refused };
    for (const step of plan.steps) {
      await tx('ci_builds').where({ id: status.id }).update(step.changes);
      Object.assign(status, step.changes);
      await announce(tx, { name: 'jobStatusChanged', build: { ...status }, from: step.from });
    }
    await followPipeline(tx, pipeline, status.status);
    return { id: status.id, refused: null };
  });
  if (outcome.refused) throw new Rejected(outcome.refused);
  return outcome.id;
}

/** PipelineProcessWorker after a completion, PipelineUpdateWorker otherwise. */
async function followPipeline(tx: Conn, pipeline: PipelineRow, status: string): Promise<void> {
  if (['success', 'failed', 'canceled'].includes(status)) {
    await updateRetried(tx, pipeline.id);
    await processPipeline(tx, pipeline.id);
  } else {
    await updatePipelineStatus(tx, pipeline.id);
  }
}
