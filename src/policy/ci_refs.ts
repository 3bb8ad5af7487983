// GitLab 10.8's protected-ref rule for CI: the jobs and pipelines of a ref run with that
// ref's protected variables, so only who may update the ref runs them.
// - A job (Ci::BuildPolicy) of a branch the user may neither push nor merge to, or of a tag
//   they may not create, refuses them update_build (retry, play, cancel) even when they are a
//   developer; its pipeline (Ci::PipelinePolicy) refuses update_pipeline (retry) the same way.
// - A pipeline is created for a ref (the pipeline chain's Validate::Abilities) only by who has
//   create_pipeline on the project and may update that ref; with no user at all (a push whose
//   user is gone, 10.8's legacy triggers) only for a ref that is not protected.
// "May update" is Gitlab::UserAccess: can_update_branch? (can_push_to_branch? or
// can_merge_to_branch?, BranchRules) for a branch; can_create_tag? for a tag, which is
// push_code while no tag is protected (Wharf protects none). Blocked users update nothing.
import type { Conn } from '../store/db.js';
import type { Flag, ProjectWithNamespace, UserRow } from '../store/rows.js';
import { BranchRules } from './branches.js';
import { ciProjectCan } from './ci.js';
import { projectCan, type ProjectAccess } from './projects.js';

/** The ref a job or a pipeline runs for. */
export interface CiRef {
  ref: string;
  tag: Flag;
}

/** What a job's or a pipeline's rule needs: its project, the user's access, its ref, the branch rules. */
export interface CiRefFacts {
  project: ProjectWithNamespace;
  access: ProjectAccess;
  ref: CiRef;
  branches: BranchRules;
}

export type BuildAbility = 'update_build';
/** `create_pipeline` here: creating a pipeline for this ref (the subject is the pipeline to be). */
export type PipelineAbility = 'update_pipeline' | 'create_pipeline';

export async function ciRefFacts(db: Conn, project: ProjectWithNamespace, access: ProjectAccess, ref: CiRef): Promise<CiRefFacts> {
  return { project, access, ref: { ref: ref.ref, tag: ref.tag }, branches: await BranchRules.load(db, project) };
}

/** Gitlab::UserAccess#can_update_branch? for a branch, #can_create_tag? for a tag. */
function mayUpdateRef(user: UserRow | null, facts: CiRefFacts): boolean {
  if (!user || user.state === 'blocked') return false;
  const { project, access, branches, ref } = facts;
  if (ref.tag) return projectCan(user, project, access, 'push_code');
  return branches.canPush(user, project, access, ref.ref) || branches.canMerge(user, project, access, ref.ref);
}

export function buildCan(user: UserRow | null, facts: CiRefFacts, ability: BuildAbility): boolean {
  return ciProjectCan(user, facts.project, facts.access, ability) && mayUpdateRef(user, facts);
}

export function pipelineCan(user: UserRow | null, facts: CiRefFacts, ability: PipelineAbility): boolean {
  if (ability === 'create_pipeline' && !user) return !facts.ref.tag && !facts.branches.isProtected(facts.ref.ref);
  return ciProjectCan(user, facts.project, facts.access, ability) && mayUpdateRef(user, facts);
}
