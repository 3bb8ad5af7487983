// Project import from a GitLab export archive (GitLab's RepositoryImportWorker, queue
// repository_import): runs once (maxAttempts 1), as a failed import is a state the user sees
// (`import_status` failed with `import_error`), never a retry loop.
import { PROJECT_IMPORT_JOB, performImport, type ImportPayload } from '../services/import_export/project_import.js';
import { registerJob } from './registry.js';

registerJob<ImportPayload>(PROJECT_IMPORT_JOB, {
  queue: 'repository_import',
  maxAttempts: 1,
  handler: (deps, payload, ctx) => performImport(deps, payload, ctx),
});
