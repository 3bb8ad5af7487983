// GitLab 10.8's Ci::CreatePipelineService: a pipeline for a commit of a branch or tag, from
// the .gitlab-ci.yml at the project's ci_config_path. First its chain's Validate::Abilities:
// the project's jobs are enabled, and the user may create a pipeline for that ref (a developer
// on a protected branch they may neither push nor merge to may not: policy/ci_refs.ts); a push
// so refused gets no pipeline, the API a 400 "Insufficient permissions for protected ref '…'".
// On a push (save_on_errors) a `[ci skip]` head commit gives a `skipped` pipeline and an
// invalid file a `failed` one carrying `yaml_errors`; through the API those are 400s with
// GitLab's `base` messages and nothing is stored. A missing file or no job for the ref stores
// nothing either way.
import type { Deps } from '../../deps.js';
import { gitdirOf } from '../../finders/projects.js';
import { RepoReader } from '../../git/reader.js';
import { can, projectSubject } from '../../policy/can.js';
import { ciRefFacts } from '../../policy/ci_refs.js';
import { projectAccess } from '../../policy/projects.js';
import { Invalid } from '../../store/domain_errors.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import type { ProjectWithNamespace, UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { parseCiConfig } from './config/config.js';
import { CiConfigError, type CiConfig, type CiJob } from './config/types.js';
import { processPipeline } from './process_pipeline.js';
import { jobRunsFor } from './ref_policy.js';
import { announce } from '../notify.js';
import { insertReturningId } from '../../store/ids.js';

export interface PipelineRequest {
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string | null;
  source: 'push' | 'api' | 'web';
  /** Push: store skipped and failed pipelines; API: answer 400 instead. */
  saveOnErrors: boolean;
}

const SKIP_WORDS = /\[(?:ci[ _-]skip|skip[ _-]ci)\]/i;

const refused = (message: string) => new Invalid({ base: [message] });

/** Validate::Abilities: why the pipeline may not be created, or null when it may. */
async function abilitiesRefusal(deps: Deps, project: ProjectWithNamespace, user: UserRow | null, req: PipelineRequest): Promise<string | null> {
  if (!project.jobs_enabled) return 'Pipelines are disabled!';
  const access = await projectAccess(deps.db, user, project);
  if (can(user, { kind: 'pipeline', ...(await ciRefFacts(deps.db, project, access, req)) }, 'create_pipeline')) return null;
  if (can(user, projectSubject(project, access), 'create_pipeline')) return `Insufficient permissions for protected ref '${req.ref}'`;
  return 'Insufficient permissions to create a new pipeline';
}

/** Creates the pipeline; null when a push needs none. Throws Invalid for the API's 400s. */
export async function createPipeline(deps: Deps, project: ProjectWithNamespace, user: UserRow | null, req: PipelineRequest): Promise<PipelineRow | null> {
  const refusal = await abilitiesRefusal(deps, project, user, req);
  if (refusal) {
    if (req.saveOnErrors) return null;
    throw refused(refusal);
  }
  const reader = new RepoReader(gitdirOf(deps.repos, project));
  let commit;
  try {
    commit = await reader.commit(req.sha);
  } catch {
    if (req.saveOnErrors) return null;
    throw refused('Commit not found');
  }
  const base = baseRow(project, user, req, commit.committer.timestamp);
  if (req.saveOnErrors && SKIP_WORDS.test(commit.message.slice(0, 100_000))) {
    return insertPipeline(deps, { ...base, status: 'skipped' }, []);
  }
  const path = project.ci_config_path || '.gitlab-ci.yml';
  const blob = await reader.blobAt(req.sha, path).catch(() => null);
  if (!blob) {
    if (req.saveOnErrors) return null;
    throw refused(`Missing ${path} file`);
  }
  let config: CiConfig;
  try {
    config = parseCiConfig(Buffer.from(blob.content).toString('utf8'));
  } catch (e) {
    if (!(e instanceof CiConfigError)) throw e;
    if (!req.saveOnErrors) throw refused(e.message);
    return insertPipeline(deps, { ...base, status: 'failed', yaml_errors: e.message, finished_at: base.created_at }, []);
  }
  const jobs = config.jobs.filter((j) => jobRunsFor(j.only, j.except, { ref: req.ref, tag: req.tag, source: req.source }));
  if (jobs.length === 0) {
    if (req.saveOnErrors) return null;
    throw refused('No stages / jobs for this pipeline.');
  }
  return insertPipeline(deps, base, jobs);
}

function baseRow(project: ProjectWithNamespace, user: UserRow | null, req: PipelineRequest, committed: number): Omit<PipelineRow, 'id'> {
  const stamp = now();
  return {
    project_id: project.id,
    ref: req.ref,
    sha: req.sha,
    before_sha: req.beforeSha,
    tag: req.tag,
    yaml_errors: null,
    status: 'created',
    source: req.source,
    user_id: user?.id ?? null,
    created_at: stamp,
    updated_at: stamp,
    started_at: null,
    finished_at: null,
    committed_at: new Date(committed * 1000).toISOString(),
    duration: null,
    coverage: null,
  };
}

async function insertPipeline(deps: Deps, row: Omit<PipelineRow, 'id'>, jobs: CiJob[]): Promise<PipelineRow> {
  const id = await deps.db.transaction(async (tx) => {
    const pipelineId = await insertReturningId(tx, 'ci_pipelines', row);
    const builds: BuildRow[] = [];
    for (const job of jobs) {
      const build = buildRow(row, pipelineId, job);
      builds.push({ ...build, id: await insertReturningId(tx, 'ci_builds', build) } as BuildRow);
    }
    await announce(tx, { name: 'jobsCreated', builds });
    if (jobs.length) await processPipeline(tx, pipelineId);
    return pipelineId;
  });
  return deps.db('ci_pipelines').where({ id }).first();
}

function buildRow(p: Omit<PipelineRow, 'id'>, pipelineId: number, job: CiJob) {
  const options = {
    before_script: job.beforeScript,
    script: job.script,
    after_script: job.afterScript,
    artifacts: job.artifacts,
    environment: job.environment,
    dependencies: job.dependencies,
    retry: job.retry,
    image: job.image,
    services: job.services,
  };
  return {
    project_id: p.project_id,
    pipeline_id: pipelineId,
    name: job.name,
    stage: job.stage,
    stage_idx: job.stageIdx,
    status: 'created',
    when: job.when,
    allow_failure: job.allowFailure,
    retried: false,
    ref: p.ref,
    tag: p.tag,
    options: JSON.stringify(options),
    yaml_variables: JSON.stringify(job.variables),
    tag_list: JSON.stringify(job.tags),
    environment: job.environment?.name ?? null,
    coverage_regex: job.coverage ?? null,
    user_id: p.user_id,
    created_at: p.created_at,
    updated_at: p.created_at,
  };
}
