// GitLab 10.8's MergeRequest#mergeable_ci_state?: under the target project's
// only_allow_merge_if_pipeline_succeeds, a merge request with a head pipeline merges only when
// the pipeline of its current head commit succeeded or was skipped. One with no pipeline at all
// passes (GitLab: `return true unless head_pipeline`); one whose pipelines are all of earlier
// commits does not (its recorded head pipeline is then outdated, so `actual_head_pipeline` is nil).
import type { Deps } from '../../deps.js';
import type { ProjectWithNamespace } from '../../store/rows.js';
import type { MergeRequestRow } from '../../store/issuable_rows.js';
import type { PipelineRow } from '../../store/ci_rows.js';
import { allPipelinesQuery, headPipelineOf } from '../../finders/merge_request_pipelines.js';
import { mergeRequestCommits } from './diff.js';

/** The commit ids of the merge request (MergeRequest#all_commit_shas, for its current diff). */
export async function mergeRequestShas(deps: Deps, target: ProjectWithNamespace, mr: MergeRequestRow): Promise<string[]> {
  const shas = (await mergeRequestCommits(deps, target, mr)).map((c) => c.oid);
  if (mr.head_sha && !shas.includes(mr.head_sha)) shas.push(mr.head_sha);
  return shas;
}

/** mergeable_ci_state? for `mr` of the target project `target`. */
export async function mergeableCiState(deps: Deps, target: ProjectWithNamespace, mr: MergeRequestRow): Promise<boolean> {
  if (!target.only_allow_merge_if_pipeline_succeeds) return true;
  const head: PipelineRow | null = await headPipelineOf(deps.db, mr);
  if (head) return head.status === 'success' || head.status === 'skipped';
  const earlier = await allPipelinesQuery(deps.db, mr, await mergeRequestShas(deps, target, mr)).first('ci_pipelines.id');
  return !earlier;
}
