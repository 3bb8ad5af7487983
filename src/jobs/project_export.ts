// Project export (GitLab's ProjectExportWorker, queue project_export): writes the archive of
// the project as it is when the job runs (services/import_export/project_export.ts); rerunning it after a
// crash writes a new archive under a temporary name, so it is harmless.
import { PROJECT_EXPORT_JOB, performExport } from '../services/import_export/project_export.js';
import { registerJob } from './registry.js';

registerJob<{ projectId: number }>(PROJECT_EXPORT_JOB, {
  queue: 'project_export',
  maxAttempts: 3,
  handler: (deps, payload, ctx) => performExport(deps, payload, ctx.progress, ctx.signal),
});
