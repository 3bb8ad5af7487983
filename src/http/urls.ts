// Every URL a response carries, built from WHARF_EXTERNAL_URL (and WHARF_SSH_HOST and
// WHARF_SSH_PORT for ssh_url_to_repo).
export class Urls {
  readonly base: string;
  readonly api: string;
  private readonly sshPrefix: string;
  /**
   * The `gravatar_enabled` setting as the current request read it (http/request_settings.ts):
   * without it, users without an avatar of their own show none (GitLab's GravatarService).
   */
  gravatarEnabled = true;
  /**
   * Whether Git LFS is on for this server (WHARF_LFS_ENABLED): the `lfs_enabled` projects and
   * groups show is their setting and this (GitLab's Project#lfs_enabled? and Gitlab.config.lfs).
   */
  lfsEnabled = true;

  /** `ssh`: where git over SSH answers (port 0: no SSH server, the URL keeps the port-22 form). */
  constructor(externalUrl: string, ssh: { host?: string; port?: number } = {}) {
    this.base = externalUrl.replace(/(?<!\/)\/+$/, '');
    this.api = `${this.base}/api/v4`;
    const host = ssh.host || new URL(this.base).hostname;
    // GitLab's ssh_path_prefix: scp-like on port 22, an ssh:// URL with the port otherwise.
    this.sshPrefix = !ssh.port || ssh.port === 22 ? `git@${host}:` : `ssh://git@${host}:${ssh.port}/`;
  }

  web(fullPath: string): string {
    return `${this.base}/${fullPath}`;
  }

  user(username: string): string {
    return `${this.base}/${username}`;
  }

  group(fullPath: string): string {
    return `${this.base}/groups/${fullPath}`;
  }

  httpRepo(fullPath: string): string {
    return `${this.base}/${fullPath}.git`;
  }

  sshRepo(fullPath: string): string {
    return `${this.sshPrefix}${fullPath}.git`;
  }

  /** An avatar_url as stored: an uploaded avatar's path made absolute (services/avatars.ts). */
  avatar(stored: string | null): string | null {
    return stored && stored.startsWith('/') ? `${this.base}${stored}` : stored;
  }

  apiProject(id: number, suffix = ''): string {
    return `${this.api}/projects/${id}${suffix}`;
  }
}
