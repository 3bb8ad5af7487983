// The built-in shell runner of one server process (WHARF_RUNNER=shell): runs up to
// `concurrency` CI jobs at once, picking them up as they become pending (a poll; cheap reads),
// renewing their leases, and watching each running job's row so a cancel kills its process
// group promptly; each job's timeout is its project's build_timeout. On stop it takes no new
// job, kills the running ones' process groups and fails them (GitLab has no way back from
// `running` to `pending`); a process that dies instead leaves leases that expire, and the next
// pickup of any process fails those jobs.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Deps } from '../../../deps.js';
import type { BuildRow } from '../../../store/ci_rows.js';
import { claimNextBuild, failAbandonedBuilds, renewLeases } from './pickup.js';
import { runJob } from './run_job.js';
import { keepFromJobs } from './job_user.js';
import { cgroupsAvailable, clearStaleJobCgroups } from './cgroup.js';
import type { StopReason } from './run_shell.js';

export interface ShellRunnerOptions {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
}

interface Active {
  build: BuildRow;
  reason: StopReason | null;
  kill: (() => void) | null;
  deadline: number;
  done: Promise<void>;
}

export class ShellRunner {
  readonly owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  private readonly active = new Map<number, Active>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private stopped = false;
  private lastRenew = 0;

  constructor(
    private readonly deps: Deps,
    readonly options: ShellRunnerOptions,
  ) {}

  get busy(): number {
    return this.active.size;
  }

  /** server.ts has made sure a job's sandbox can be made (sandbox.ts's probeSandbox). */
  start(): void {
    const config = this.deps.config;
    if (config.runnerSandbox === 'none') this.deps.log.warn('WHARF_RUNNER_SANDBOX=none: CI jobs run unconfined on this machine');
    if (process.getuid?.() === 0) keepFromJobs(config, this.deps.log);
    if (!cgroupsAvailable()) this.deps.log.warn('no cgroup can be made for CI jobs here: their memory is not bounded as a whole');
    void clearStaleJobCgroups().catch((err: unknown) => this.deps.log.warn({ err }, 'stale CI job cgroups could not be cleared'));
    this.timer = setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
    void this.tick();
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    try {
      await this.watch();
      await failAbandonedBuilds(this.deps.db);
      while (!this.stopped && this.active.size < this.options.concurrency) {
        const claimed = await claimNextBuild(this.deps.db, this.owner, this.options.leaseMs);
        if (!claimed) break;
        this.launch(claimed.build, claimed.token);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'the CI runner could not poll for jobs');
    } finally {
      this.ticking = false;
    }
  }

  /** Cancels seen, timeouts reached, leases renewed. */
  private async watch(): Promise<void> {
    if (!this.active.size) return;
    const ids = [...this.active.keys()];
    const rows: { id: number; status: string }[] = await this.deps.db('ci_builds').whereIn('id', ids).select('id', 'status');
    const now = Date.now();
    for (const a of this.active.values()) {
      const row = rows.find((r) => r.id === a.build.id);
      if (!a.reason && (!row || row.status !== 'running')) this.stopJob(a, 'canceled');
      else if (!a.reason && now > a.deadline) this.stopJob(a, 'timeout');
    }
    if (now - this.lastRenew > this.options.leaseMs / 3) {
      this.lastRenew = now;
      await renewLeases(this.deps.db, this.owner, ids, this.options.leaseMs);
    }
  }

  private stopJob(a: Active, reason: StopReason): void {
    a.reason = reason;
    a.kill?.();
  }

  private launch(build: BuildRow, token: string): void {
    const entry: Active = { build, reason: null, kill: null, deadline: Infinity, done: Promise.resolve() };
    this.active.set(build.id, entry);
    entry.done = (async () => {
      try {
        const project: { build_timeout: number } | undefined = await this.deps.db('projects').where({ id: build.project_id }).first('build_timeout');
        entry.deadline = Date.now() + (project?.build_timeout ?? 3600) * 1000;
        await runJob(this.deps, build, token, {
          stopReason: () => entry.reason,
          stop: (reason) => {
            if (!entry.reason) this.stopJob(entry, reason);
          },
          onKill: (kill) => {
            entry.kill = kill;
            if (kill && entry.reason) kill();
          },
        });
      } catch (err) {
        this.deps.log.error({ err, build: build.id }, 'a CI job could not be run');
      } finally {
        this.active.delete(build.id);
        if (!this.stopped) setImmediate(() => void this.tick());
      }
    })();
  }

  /** Stops picking up jobs; kills and fails the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const a of this.active.values()) this.stopJob(a, 'shutdown');
    await Promise.all([...this.active.values()].map((a) => a.done));
  }
}
