// Every URL a response carries, built from WHARF_EXTERNAL_URL.
export class Urls {
  readonly base: string;
  readonly api: string;
  private readonly sshHost: string;
  /**
   * The `gravatar_enabled` setting as the current request read it (http/request_settings.ts):
   * without it, users without an avatar of their own show none (GitLab's GravatarService).
   */
  gravatarEnabled = true;

  constructor(externalUrl: string) {
    this.base = externalUrl.replace(/(?<!\/)\/+$/, '');
    this.api = `${this.base}/api/v4`;
    this.sshHost = new URL(this.base).hostname;
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
    return `git@${this.sshHost}:${fullPath}.git`;
  }

  apiProject(id: number, suffix = ''): string {
    return `${this.api}/projects/${id}${suffix}`;
  }
}
