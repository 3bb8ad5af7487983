// The pipelines of an export, in GitLab 10.8's nesting (import_export.yml: pipelines → stages →
// statuses): each pipeline's attributes, its stages in order with their composite status as
// Ci::Stage stores it (an integer of HasStatus's enum), and under each stage its jobs (Ci::Build
// or GenericCommitStatus) with what a job row keeps — never its token, trace or artifacts, which
// GitLab's export leaves out too. One query for the pipelines, one for their jobs.
import type { Conn } from '../../store/db.js';
import type { BuildRow, PipelineRow } from '../../store/ci_rows.js';
import { flag } from '../../store/rows.js';
import { CI_STATUSES, compositeStatus } from '../../store/ci_statuses.js';

type Row = Record<string, unknown>;

function parsed(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function jobJson(b: BuildRow, stageId: number): Row {
  const options = parsed(b.options) as { script?: string[] } | null;
  return {
    id: b.id,
    project_id: b.project_id,
    status: b.status,
    finished_at: b.finished_at,
    trace: null,
    created_at: b.created_at,
    updated_at: b.updated_at,
    started_at: b.started_at,
    runner_id: null,
    coverage: b.coverage,
    commit_id: b.pipeline_id,
    commands: options?.script?.map((c) => `$ ${c}`).join('\n') ?? null,
    name: b.name,
    deploy: false,
    options,
    allow_failure: flag(b.allow_failure),
    stage: b.stage,
    trigger_request_id: null,
    stage_idx: b.stage_idx,
    stage_id: stageId,
    tag: flag(b.tag),
    ref: b.ref,
    user_id: b.user_id,
    type: b.type,
    target_url: b.target_url,
    description: b.description,
    erased_by_id: null,
    erased_at: null,
    artifacts_expire_at: b.artifacts_expire_at,
    environment: b.environment,
    when: b.when,
    yaml_variables: parsed(b.yaml_variables),
    queued_at: b.queued_at,
    coverage_regex: b.coverage_regex,
    retried: flag(b.retried),
    protected: false,
    failure_reason: null,
  };
}

export async function pipelinesTree(db: Conn, projectId: number): Promise<Row[]> {
  const [pipelines, builds] = await Promise.all([
    db('ci_pipelines').where({ project_id: projectId }).orderBy('id') as Promise<PipelineRow[]>,
    db('ci_builds').where({ project_id: projectId }).orderBy(['pipeline_id', 'stage_idx', 'id']) as Promise<BuildRow[]>,
  ]);
  const byPipeline = new Map<number, BuildRow[]>();
  for (const b of builds) byPipeline.set(b.pipeline_id, [...(byPipeline.get(b.pipeline_id) ?? []), b]);
  return pipelines.map((p) => {
    const stages = new Map<string, BuildRow[]>();
    for (const b of byPipeline.get(p.id) ?? []) stages.set(b.stage, [...(stages.get(b.stage) ?? []), b]);
    return {
      id: p.id,
      project_id: p.project_id,
      ref: p.ref,
      sha: p.sha,
      before_sha: p.before_sha,
      push_data: null,
      created_at: p.created_at,
      updated_at: p.updated_at,
      tag: flag(p.tag),
      yaml_errors: p.yaml_errors,
      committed_at: p.committed_at,
      status: p.status,
      started_at: p.started_at,
      finished_at: p.finished_at,
      duration: p.duration,
      user_id: p.user_id,
      source: p.source,
      coverage: p.coverage,
      notes: [],
      stages: [...stages].map(([name, jobs], i) => {
        const stageId = p.id * 1000 + i;
        const latest = jobs.filter((j) => !flag(j.retried));
        return {
          id: stageId,
          project_id: p.project_id,
          pipeline_id: p.id,
          name,
          status: CI_STATUSES.indexOf(compositeStatus(latest)),
          created_at: jobs[0].created_at,
          updated_at: jobs[jobs.length - 1].updated_at,
          statuses: jobs.map((j) => jobJson(j, stageId)),
        };
      }),
    };
  });
}
