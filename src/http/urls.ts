// Every URL a response carries, built from WHARF_EXTERNAL_URL.
export class Urls {
  readonly base: string;
  readonly api: string;
  private readonly sshHost: string;

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
