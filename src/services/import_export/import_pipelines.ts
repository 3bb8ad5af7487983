// Restoring an export's pipelines (GitLab 10.8's pipelines → stages → statuses) as the
// project's CI history: each pipeline with its jobs, statuses, timestamps, ref, sha and stage
// order kept. A pipeline or job that was still waiting or running when exported comes back
// `canceled`: nothing runs it here (the runner would otherwise pick up a job from another
// instance), as nothing would finish it. Jobs carry no token, trace or artifacts (the export
// has none). Values are checked as the other relations are: a sha must be a commit id, a status
// one of GitLab's, text is bounded.
import type { Tx } from '../../store/db.js';
import { CI_STATUSES, type CiStatus } from '../../store/ci_statuses.js';
import { insertReturningId } from '../../store/ids.js';

type Row = Record<string, any>;

const str = (v: unknown, max = 255): string | null => (typeof v === 'string' ? v.slice(0, max) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const list = (v: unknown): Row[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const sha = (v: unknown): string | null => (typeof v === 'string' && /^[0-9a-f]{40}$/.test(v) ? v : null);
const WAITING: readonly string[] = ['created', 'pending', 'running'];
const WHEN = new Set(['on_success', 'on_failure', 'always', 'manual']);
const SOURCES = new Set(['push', 'web', 'api', 'trigger', 'schedule', 'external']);

function status(v: unknown): CiStatus {
  const s = typeof v === 'string' && (CI_STATUSES as readonly string[]).includes(v) ? (v as CiStatus) : 'failed';
  return WAITING.includes(s) ? 'canceled' : s;
}

function json(v: unknown, fallback: unknown): string {
  return JSON.stringify(v && typeof v === 'object' ? v : fallback).slice(0, 1_000_000);
}

export async function restorePipelines(tx: Tx, projectId: number, pipelines: unknown, mapUser: (id: unknown) => number, at: string): Promise<number> {
  const stampOf = (v: unknown, fallback: string | null) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : fallback);
  let count = 0;
  for (const p of list(pipelines)) {
    const commit = sha(p.sha);
    const ref = str(p.ref);
    if (!commit || !ref) continue;
    const created = stampOf(p.created_at, at) as string;
    const pipelineId = await insertReturningId(tx, 'ci_pipelines', {
      project_id: projectId,
      ref,
      sha: commit,
      before_sha: sha(p.before_sha),
      tag: p.tag === true,
      yaml_errors: str(p.yaml_errors, 65_535),
      status: status(p.status),
      source: SOURCES.has(p.source) ? p.source : 'push',
      user_id: p.user_id === null || p.user_id === undefined ? null : mapUser(p.user_id),
      created_at: created,
      updated_at: stampOf(p.updated_at, created),
      started_at: stampOf(p.started_at, null),
      finished_at: stampOf(p.finished_at, null),
      committed_at: stampOf(p.committed_at, null),
      duration: int(p.duration),
      coverage: str(p.coverage, 32),
    });
    for (const stage of list(p.stages)) {
      for (const j of list(stage.statuses)) {
        const name = str(j.name);
        if (!name) continue;
        const jobCreated = stampOf(j.created_at, created) as string;
        await tx('ci_builds').insert({
          project_id: projectId,
          pipeline_id: pipelineId,
          name,
          stage: str(j.stage) ?? str(stage.name) ?? 'test',
          stage_idx: int(j.stage_idx) ?? 0,
          status: status(j.status),
          when: WHEN.has(j.when) ? j.when : 'on_success',
          allow_failure: j.allow_failure === true,
          retried: j.retried === true,
          ref,
          tag: p.tag === true,
          options: json(j.options, {}),
          yaml_variables: json(j.yaml_variables, []),
          tag_list: '[]',
          environment: str(j.environment),
          coverage_regex: str(j.coverage_regex),
          coverage: typeof j.coverage === 'number' && Number.isFinite(j.coverage) ? j.coverage : null,
          user_id: j.user_id === null || j.user_id === undefined ? null : mapUser(j.user_id),
          token_digest: null,
          created_at: jobCreated,
          updated_at: stampOf(j.updated_at, jobCreated),
          queued_at: stampOf(j.queued_at, null),
          started_at: stampOf(j.started_at, null),
          finished_at: stampOf(j.finished_at, null),
          type: j.type === 'GenericCommitStatus' ? 'GenericCommitStatus' : 'Ci::Build',
          description: str(j.description, 65_535),
          target_url: str(j.target_url, 65_535),
        });
      }
    }
    count += 1;
  }
  return count;
}
