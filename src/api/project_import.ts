// GitLab 10.8's lib/api/project_import.rb: `POST /projects/import` (multipart `file` and
// `path`, optional `namespace` and `override_params[...]`) answers 201 with the project's
// ProjectImportStatus while the import runs in the background (services/import_export/project_import.ts);
// `GET /projects/:id/import` follows it. 403 when `gitlab_project` is not among the
// instance's import sources; then Grape's `requires :file, type: File`: 400 "file is missing"
// without one, "file is invalid" for a field that is not a file. With `overwrite`, a
// project already at the path is replaced once the import finished (services/import_export/project_overwrite.ts).
import { ApiError } from '../http/errors.js';
import { uploadedFiles } from '../http/body.js';
import { p } from '../http/params.js';
import { settingsOf } from '../services/settings/application_settings.js';
import { scheduleImport } from '../services/import_export/project_import.js';
import { projectImportStatus } from '../entities/project_export.js';
import { route, type Route } from './core/route.js';

const OVERRIDABLE = new Set([
  'description',
  'visibility',
  'issues_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'jobs_enabled',
  'request_access_enabled',
]);

function overridesOf(raw: Record<string, string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (!OVERRIDABLE.has(k)) continue;
    if (k === 'description') out[k] = v;
    else if (k === 'visibility') {
      if (!['private', 'internal', 'public'].includes(v)) throw new ApiError(400, { error: 'override_params[visibility] does not have a valid value' });
      out[k] = v;
    } else out[k] = v === 'true' || v === '1';
  }
  return out;
}

export const projectImportRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/projects/import',
    auth: 'user',
    params: { path: p.string().required(), namespace: p.string(), overwrite: p.boolean().default(false), override_params: p.hash() },
    status: 201,
    summary: 'Create a new project import',
    handler: async ({ ctx, deps, user, params }) => {
      if (!(await settingsOf(deps)).import_sources.includes('gitlab_project')) throw new ApiError(403, { message: '403 Forbidden' });
      const file = uploadedFiles(ctx).file?.[0];
      if (!file) {
        const sent = (ctx.request.body as Record<string, unknown> | undefined)?.file !== undefined;
        throw new ApiError(400, { error: sent ? 'file is invalid' : 'file is missing' });
      }
      const project = await scheduleImport(deps, user, {
        path: params.path,
        namespace: params.namespace ?? undefined,
        file: file.path,
        overrides: overridesOf(params.override_params ?? undefined),
        overwrite: params.overwrite,
      });
      return projectImportStatus(project);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/import',
    auth: 'user',
    load: 'project',
    summary: 'Get a project import status',
    handler: async ({ project }) => projectImportStatus(project),
  }),
];
