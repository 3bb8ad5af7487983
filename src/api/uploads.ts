// GitLab 10.8's `POST /projects/:id/uploads` (lib/api/projects.rb, UploadService): a multipart
// `file` for whoever can read the project (signed in: the API refuses anonymous writes),
// answered 201 with `{alt, url, markdown}`, the URL relative to the project's web URL
// (`/uploads/<secret>/<filename>`, served by upload_files.ts). Grape's 400s without a file;
// over the `max_attachment_size` setting, 413 (10.8 answered an empty 201 then).
import { ApiError } from '../http/errors.js';
import { uploadedFiles } from '../http/body.js';
import { p } from '../http/params.js';
import { settingsOf } from '../services/settings/application_settings.js';
import { createUpload } from '../services/uploads/uploads.js';
import { route, type Route } from './core/route.js';

export const uploadRoutes: Route[] = [
  route({
    method: 'POST',
    path: '/projects/:id/uploads',
    auth: 'user',
    load: 'project',
    ability: 'read_project',
    params: { file: p.file() },
    summary: 'Upload a file',
    handler: async ({ ctx, deps, user, project }) => {
      const file = uploadedFiles(ctx).file?.[0];
      if (!file) {
        const sent = (ctx.request.body as Record<string, unknown> | undefined)?.file !== undefined;
        throw new ApiError(400, { error: sent ? 'file is invalid' : 'file is missing' });
      }
      const { max_attachment_size: mb } = await settingsOf(deps);
      if (file.size > mb * 1024 * 1024) throw new ApiError(413, { message: `File is too big (maximum is ${mb} MB)` });
      return createUpload(deps, project, user, file);
    },
  }),
];
