// The project hooks' subscriber (GitLab 10.8's execute_hooks of the issue, merge request and
// note services, GitPushService, and the CI state machines' BuildHooksWorker and
// PipelineHooksWorker): which announcements queue a delivery to which scope of the project's
// hooks (and, for push, tag push and merge request events, of the system hooks that enabled
// them: triggers.ts). Job hooks are for Ci::Build only, not external statuses; a job's hook
// fires when it is created, starts running, or finishes.
import type { Conn } from '../../store/db.js';
import type { BuildRow } from '../../store/ci_rows.js';
import type { CiStatus } from '../../store/ci_statuses.js';
import type { DomainEvent } from '../domain_events.js';
import { enqueueIssueHooks, enqueueMergeRequestHooks, enqueueNoteHooks, enqueueProjectHooks, enqueueProjectHooksEach } from './triggers.js';

const JOB_HOOK_STATUSES: readonly CiStatus[] = ['success', 'failed', 'canceled'];
const isJob = (b: BuildRow) => b.type === undefined || b.type === null || b.type === 'Ci::Build';

export async function projectWebhooks(tx: Conn, e: DomainEvent): Promise<void> {
  switch (e.name) {
    case 'issuableOpened':
      if (e.target.type === 'Issue') await enqueueIssueHooks(tx, e.target.id, e.actor.id, 'open', null);
      else await enqueueMergeRequestHooks(tx, e.target.id, e.actor.id, 'open', null);
      return;
    case 'issuableChanged': {
      if (!e.touched) return;
      const action = e.state === 'closed' ? 'close' : e.state === 'reopened' ? 'reopen' : 'update';
      if (e.target.type === 'Issue') await enqueueIssueHooks(tx, e.target.id, e.actor.id, action, e.before as Parameters<typeof enqueueIssueHooks>[4], e.labelsBefore);
      else await enqueueMergeRequestHooks(tx, e.target.id, e.actor.id, action, e.before as Parameters<typeof enqueueMergeRequestHooks>[4], e.labelsBefore);
      return;
    }
    case 'mergeRequestMerged':
      await enqueueMergeRequestHooks(tx, e.mergeRequest.id, e.actor.id, 'merge', e.mergeRequest);
      return;
    case 'noteAdded':
      await enqueueNoteHooks(tx, e.noteId, e.actor.id);
      return;
    case 'pushed':
      for (const h of e.hookEvents) await enqueueProjectHooks(tx, e.project.id, h.scope, h.event);
      return;
    case 'jobsCreated': {
      const jobs = e.builds.filter(isJob);
      if (!jobs.length) return;
      const events = jobs.map((build) => ({ kind: 'build' as const, projectId: build.project_id, build }));
      await enqueueProjectHooksEach(tx, jobs[0].project_id, 'job_hooks', events);
      return;
    }
    case 'jobRetried':
      if (isJob(e.build)) await enqueueJobHook(tx, e.build);
      return;
    case 'jobStatusChanged': {
      const started = e.from === 'pending' && e.build.status === 'running';
      if (isJob(e.build) && (started || JOB_HOOK_STATUSES.includes(e.build.status))) await enqueueJobHook(tx, e.build);
      return;
    }
    case 'pipelineStatusChanged': {
      const pipeline = e.pipeline;
      await enqueueProjectHooks(tx, pipeline.project_id, 'pipeline_hooks', async () => {
        const statuses: BuildRow[] = await tx('ci_builds').where({ pipeline_id: pipeline.id }).orderBy('id');
        const stages = [...new Map([...statuses].sort((a, b) => a.stage_idx - b.stage_idx).map((s) => [s.stage, s.stage])).keys()];
        const builds = statuses.filter(isJob);
        const warnings = builds.some((b) => !b.retried && b.status === 'failed' && !!b.allow_failure);
        return { kind: 'pipeline', projectId: pipeline.project_id, pipeline, builds, stages, warnings };
      });
      return;
    }
    default:
      return;
  }
}

async function enqueueJobHook(tx: Conn, build: BuildRow): Promise<void> {
  await enqueueProjectHooks(tx, build.project_id, 'job_hooks', { kind: 'build', projectId: build.project_id, build });
}
