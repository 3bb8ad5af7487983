// GitLab 10.8's lib/api/project_export.rb: `POST /projects/:id/export` (202 "202 Accepted"),
// `GET /projects/:id/export` (ProjectExportStatus) and `GET /projects/:id/export/download`
// (the archive as an attachment, or 404 "Not found or has expired"), for those who may
// administer the project, and 404 for everyone while the `project_export_enabled` setting
// is off. The export itself is a background job (services/import_export/project_export.ts).
import fs from 'node:fs';
import type { Deps } from '../deps.js';
import { ApiError, notFound, paramError } from '../http/errors.js';
import { p } from '../http/params.js';
import { settingsOf } from '../services/settings/application_settings.js';
import { exportedFile, exportStatus, startExport } from '../services/import_export/project_export.js';
import { projectExportStatus } from '../entities/project_export.js';
import { HANDLED, route, type Route } from './core/route.js';

async function requireExportEnabled(deps: Deps): Promise<void> {
  if (!(await settingsOf(deps)).project_export_enabled) throw notFound();
}

function uploadOf(raw: Record<string, unknown> | undefined): { uploadUrl?: string; uploadMethod?: 'PUT' | 'POST' } {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object') throw paramError('upload is invalid');
  const url = raw.url;
  const method = raw.http_method ?? 'PUT';
  if (url !== undefined && typeof url !== 'string') throw paramError('upload[url] is invalid');
  if (typeof method !== 'string') throw paramError('upload[http_method] is invalid');
  if (!url) return {};
  const errors: Record<string, string[]> = {};
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) errors.url = ['is blocked: Only allowed protocols are http, https'];
  const upper = method.toUpperCase();
  // WebUploadStrategy's own validation message.
  if (upper !== 'PUT' && upper !== 'POST') errors.http_method = ['invalid. Only PUT and POST methods allowed.'];
  if (Object.keys(errors).length) throw new ApiError(400, { message: errors });
  return { uploadUrl: url, uploadMethod: upper as 'PUT' | 'POST' };
}

export const projectExportRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/projects/:id/export',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    summary: 'Get export status',
    handler: async ({ deps, project }) => {
      await requireExportEnabled(deps);
      return projectExportStatus(deps.urls, project, await exportStatus(deps, project.id));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/export/download',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    summary: 'Download export',
    handler: async ({ ctx, deps, project }) => {
      await requireExportEnabled(deps);
      const file = await exportedFile(deps, project.id);
      if (!file) throw new ApiError(404, { message: '404 Not found or has expired' });
      const stat = await fs.promises.stat(file.path);
      ctx.status = 200;
      ctx.set('Content-Type', 'application/gzip');
      ctx.set('Content-Disposition', `attachment; filename=${file.name}`);
      ctx.set('Content-Transfer-Encoding', 'binary'); // present_disk_file!
      ctx.set('Content-Length', String(stat.size));
      ctx.body = fs.createReadStream(file.path);
      return HANDLED;
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/export',
    auth: 'user',
    load: 'project',
    ability: 'admin_project',
    params: { description: p.string(), upload: p.hash() },
    status: 202,
    summary: 'Start export',
    handler: async ({ deps, project, params }) => {
      await requireExportEnabled(deps);
      const upload = uploadOf(params.upload as Record<string, unknown> | undefined);
      await startExport(deps, project, { description: params.description ?? undefined, ...upload });
      return { message: '202 Accepted' };
    },
  }),
];
