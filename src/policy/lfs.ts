// Who may do what with Git LFS beyond reading and pushing code (which git_access.ts decides for
// LFS as for git, GitLab's lfs_download_access? and lfs_upload_access?): LFS on for the project,
// force-unlocking another user's lock (Lfs::UnlockFileService: admin_project, a maintainer's),
// and whether a download needs no credentials (the batch API's `authenticated: true`, when an
// anonymous visitor could download: `Guest.can?(:download_code, project)`).
import type { ProjectWithNamespace, UserRow } from '../store/rows.js';
import { lfsEnabled } from '../store/lfs.js';
import type { ProjectAccess } from './projects.js';
import { can, projectSubject } from './can.js';

const NO_ACCESS: ProjectAccess = { projectLevel: null, groupLevel: null, owner: false };

export function projectLfsEnabled(project: ProjectWithNamespace, onServer: boolean): boolean {
  return lfsEnabled(project.lfs_enabled, onServer);
}

export function mayForceUnlockLfs(user: UserRow, project: ProjectWithNamespace, access: ProjectAccess): boolean {
  return can(user, projectSubject(project, access), 'admin_project');
}

export function anonymousMayDownload(project: ProjectWithNamespace): boolean {
  return can(null, projectSubject(project, NO_ACCESS), 'download_code');
}
