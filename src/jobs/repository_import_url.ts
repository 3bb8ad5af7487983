// Cloning a repository from a project's import_url (GitLab's RepositoryImportWorker, queue
// repository_import): runs once; a failure is the project's `import_status` failed.
import { URL_IMPORT_JOB, performUrlImport } from '../services/import_export/project_url_import.js';
import { registerJob } from './registry.js';

registerJob<{ projectId: number; url: string }>(URL_IMPORT_JOB, {
  queue: 'repository_import',
  maxAttempts: 1,
  handler: (deps, payload, ctx) => performUrlImport(deps, payload, ctx.signal),
});
