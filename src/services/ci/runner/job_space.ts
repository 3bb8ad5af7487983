// A CI job's place on disk and in its sandbox. The server makes a folder for the job (its own,
// mode 0700, never given away) holding the job's checkout and home, which alone are given to
// the job's user, and the files the job only reads (its scripts, its /etc/passwd). Inside the
// sandbox the checkout is `/builds/<namespace>/<project>` (CI_PROJECT_DIR, as GitLab Runner's
// docker executor shows it), the home `/home/ci`, and the read-only files under `/wharf/`; with
// WHARF_RUNNER_SANDBOX=none every path is the host's own. Every step of the job runs in the
// same cgroup (cgroup.ts) with the same user.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config, RunnerLimits } from '../../../config.js';
import { accountFiles, giveTo, jobUser, type JobUser } from './job_user.js';
import { createJobCgroup, type JobCgroup } from './cgroup.js';
import { jobProcessLimit } from './process_limit.js';
import { helperScript, type Mount, type SandboxConfig, type Step } from './sandbox.js';

/** `/builds/<full path>` when the project's path is plain (it always is: namespace rules). */
function buildsDir(fullPath: string): string {
  const plain = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(fullPath) && !fullPath.split('/').some((p) => p === '.' || p === '..');
  return plain ? `/builds/${fullPath}` : '/builds/project';
}

export class JobSpace {
  readonly work: string;
  /** The checkout, on the host (where git clones it). */
  readonly hostProject: string;
  private readonly hostHome: string;
  readonly user: JobUser | null;
  private readonly sandboxed: boolean;
  private readonly mounts: Mount[] = [];
  private cgroup: JobCgroup | null = null;
  private readonly cgroupFor: () => JobCgroup | null;
  /** The checkout and the home as the job sees them. */
  readonly projectDir: string;
  readonly home: string;
  /** What this job's steps may use: config's limits, processes counted for its own user. */
  readonly config: SandboxConfig;

  constructor(config: Config, buildId: number, fullPath: string) {
    this.work = fs.mkdtempSync(path.join(os.tmpdir(), `wharf-build-${buildId}-`));
    this.hostProject = path.join(this.work, 'project');
    this.hostHome = path.join(this.work, 'home');
    fs.mkdirSync(this.hostHome);
    this.user = jobUser(config, buildId);
    this.sandboxed = config.runnerSandbox === 'bwrap';
    this.projectDir = this.sandboxed ? buildsDir(fullPath) : this.hostProject;
    this.home = this.sandboxed ? '/home/ci' : this.hostHome;
    // A server that cannot switch users shares its uid with its jobs: the kernel counts their
    // processes together, so the limit is on top of what the server's user runs now.
    const processes = this.user ? config.runnerLimits.processes : jobProcessLimit(config.runnerLimits.processes);
    const limits: RunnerLimits = { ...config.runnerLimits, processes };
    this.config = { ...config, runnerLimits: limits };
    this.cgroupFor = () => createJobCgroup(buildId, limits);
  }

  /** After the checkout: the checkout and home to the job's user, its accounts, its cgroup. */
  async prepare(): Promise<void> {
    if (this.user) {
      await giveTo(this.hostProject, this.user);
      await giveTo(this.hostHome, this.user);
      if (!this.sandboxed) {
        // Unconfined, the job reaches its files through the server's folder: it may pass
        // through it, and other jobs may not enter its checkout or home.
        fs.chmodSync(this.work, 0o711);
        fs.chmodSync(this.hostProject, 0o700);
        fs.chmodSync(this.hostHome, 0o700);
      }
    }
    this.mounts.push({ host: this.hostProject, inside: this.projectDir, writable: true }, { host: this.hostHome, inside: this.home, writable: true });
    if (this.user && this.sandboxed) {
      const files = accountFiles(this.user, this.home);
      this.mounts.push({ host: this.writeHost('passwd', files.passwd), inside: '/etc/passwd' }, { host: this.writeHost('group', files.group), inside: '/etc/group' });
    }
    this.cgroup = this.cgroupFor();
  }

  /** The folders the job writes to on disk (its checkout and its home). */
  get ownFolders(): string[] {
    return [this.hostProject, this.hostHome];
  }

  oomKilled(): boolean {
    return this.cgroup?.oomKilled() ?? false;
  }

  private writeHost(name: string, content: string): string {
    const file = path.join(this.work, name);
    fs.writeFileSync(file, content, { mode: 0o644, flag: 'wx' });
    return file;
  }

  /** A file the job reads but cannot change (the server's, in the server's folder); its inside path. */
  readOnlyFile(name: string, content: string): string {
    const host = this.writeHost(name, content);
    return this.sandboxed ? this.mountReadOnly(host, name) : host;
  }

  /** Shows a file of the server's read-only to the job (an archive to unpack); its inside path. */
  readOnly(host: string, name: string): string {
    if (!this.sandboxed) {
      // Unconfined, the job's user cannot enter the server's data folder: it gets a copy.
      const copy = path.join(this.work, name);
      fs.copyFileSync(host, copy, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(copy, 0o644);
      return copy;
    }
    return this.mountReadOnly(host, name);
  }

  private mountReadOnly(host: string, name: string): string {
    const inside = `/wharf/${name}`;
    this.mounts.push({ host, inside });
    return inside;
  }

  step(command: string[], helper = false): Step {
    return { command, cwd: this.projectDir, mounts: [...this.mounts], user: this.user, cgroup: this.cgroup, helper };
  }

  /** A step of the runner's own helper (sandbox_helper.ts) on this job's checkout. */
  helperStep(op: 'collect' | 'unpack', arg: unknown): Step {
    return this.step([fs.realpathSync(process.execPath), helperScript(this.config), op, JSON.stringify(arg)], true);
  }

  /** The helper's environment: nothing of the job's variables. */
  helperEnv(): Record<string, string> {
    return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: this.home, LANG: 'C.UTF-8' };
  }

  async dispose(): Promise<void> {
    await this.cgroup?.remove();
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}
