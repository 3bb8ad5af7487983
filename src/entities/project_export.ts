// GitLab 10.8's Entities::ProjectExportStatus: the project's identity (ProjectIdentity:
// id, description, name, name_with_namespace, path, path_with_namespace, created_at), its
// `export_status`, and `_links` (the API download and the web download) once finished.
import type { Urls } from '../http/urls.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import { projectIdentity } from './project.js';

export function projectExportStatus(urls: Urls, p: ProjectWithNamespace, status: string) {
  const identity = projectIdentity(p);
  return {
    ...identity,
    export_status: status,
    ...(status === 'finished' ? { _links: { api_url: urls.apiProject(p.id, '/export/download'), web_url: `${urls.web(identity.path_with_namespace)}/download_export` } } : {}),
  };
}

/** GitLab 10.8's Entities::ProjectImportStatus: identity, `import_status`, `import_error` when there is one. */
export function projectImportStatus(p: ProjectWithNamespace) {
  return { ...projectIdentity(p), import_status: p.import_status, ...(p.import_error ? { import_error: p.import_error } : {}) };
}
