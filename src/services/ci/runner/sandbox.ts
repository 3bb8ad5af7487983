// The sandbox every step of a CI job runs in (its script, its after_script, and the unpacking
// and collecting of artifacts), made with bubblewrap (`bwrap`), the tool Flatpak confines apps
// with. What a step gets:
// - its own PID namespace: when the step's first process ends, the kernel kills everything it
//   left (a `setsid cmd &` included), and the step sees no other process of the machine;
// - its own mounts: the system's /usr and /etc read-only (and node, for the runner's helpers),
//   a new /proc and /dev, a fresh size-bounded /tmp, /var/tmp and /dev/shm, and its checkout
//   and home as the only writable places; the server's data folders, its code, other jobs'
//   folders and the rest of the machine are absent (and masked, should they be under /usr or
//   /etc);
// - its own user (job_user.ts), never root, with no capabilities and no_new_privs (setuid
//   programs gain nothing), its own IPC and host name;
// - limits: RLIMIT_NPROC and RLIMIT_FSIZE (prlimit), the job's cgroup (cgroup.ts) for memory
//   and processes together; the job's time is the runner's.
// It shares the kernel and the network with the host (as GitLab's shell executor does): it is
// not a VM. With WHARF_RUNNER_SANDBOX=none, the same steps run with the same user and limits but
// unconfined; the runner refuses to start when bwrap cannot make a sandbox and `none` was not
// chosen (probeSandbox).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../../config.js';
import type { JobCgroup } from './cgroup.js';
import type { JobUser } from './job_user.js';

export interface Mount {
  host: string;
  inside: string;
  writable?: boolean;
}

export interface Step {
  /** The command, as it is seen inside (paths of `mounts`' inside side). */
  command: string[];
  cwd: string;
  mounts: Mount[];
  user: JobUser | null;
  cgroup: JobCgroup | null;
  /** The runner's own code (the artifacts helpers) is shown read-only at HELPER_ROOT. */
  helper?: boolean;
}

/** Where the server's code is installed (dist/src/services/ci/runner/ is five folders down). */
const INSTALL_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
/** Where a sandboxed helper sees the server's code. */
const HELPER_ROOT = '/opt/wharf';

/** The path of the helper script as the step will see it. */
export function helperScript(config: Pick<Config, 'runnerSandbox'>): string {
  const rel = 'dist/src/services/ci/runner/sandbox_helper.js';
  return config.runnerSandbox === 'bwrap' ? `${HELPER_ROOT}/${rel}` : path.join(INSTALL_ROOT, rel);
}

function systemMounts(): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(top);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(top), top);
    else if (stat.isDirectory()) args.push('--ro-bind', top, top);
  }
  const node = fs.realpathSync(process.execPath);
  if (!node.startsWith('/usr/')) args.push('--ro-bind', node, node);
  return args;
}

/** The server's data, hidden should an installation keep it under a folder the sandbox shows. */
function masks(config: Pick<Config, 'db' | 'reposDir' | 'serverSecret' | 'sshHostKey'>): string[] {
  const shown = ['/usr/', '/etc/', path.dirname(fs.realpathSync(process.execPath)) + '/'];
  const data = [config.reposDir, config.serverSecret, config.sshHostKey, ...(/^postgres(ql)?:/.test(config.db) ? [] : [path.dirname(config.db)])];
  const args: string[] = [];
  for (const p of data) {
    if (!shown.some((s) => p.startsWith(s)) || !fs.existsSync(p)) continue;
    if (fs.statSync(p).isDirectory()) args.push('--tmpfs', p);
    else args.push('--ro-bind', '/dev/null', p);
  }
  return args;
}

export type SandboxConfig = Pick<Config, 'runnerSandbox' | 'runnerBwrap' | 'runnerLimits' | 'db' | 'reposDir' | 'serverSecret' | 'sshHostKey'>;

function bwrapArgs(config: SandboxConfig, step: Pick<Step, 'mounts' | 'cwd' | 'helper'>): string[] {
  const tmp = String(config.runnerLimits.tmpBytes);
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--hostname', 'wharf-ci'];
  if (process.getuid?.() !== 0) args.push('--unshare-user');
  args.push(...systemMounts(), '--proc', '/proc', '--dev', '/dev');
  for (const dir of ['/tmp', '/var/tmp', '/dev/shm']) args.push('--perms', '1777', '--size', tmp, '--tmpfs', dir);
  args.push(...masks(config));
  const mounts: Mount[] = [
    ...(step.helper ? ['dist', 'node_modules', 'package.json'].map((part) => ({ host: path.join(INSTALL_ROOT, part), inside: `${HELPER_ROOT}/${part}` })) : []),
    ...step.mounts,
  ];
  // bwrap makes the folders leading to a mount point 0700, which the job's user could not pass.
  const folders = new Set<string>();
  for (const m of mounts) {
    for (let dir = path.posix.dirname(m.inside); dir !== '/' && !dir.startsWith('/etc') && !dir.startsWith('/usr'); dir = path.posix.dirname(dir)) folders.add(dir);
  }
  for (const dir of [...folders].sort()) args.push('--perms', '0755', '--dir', dir);
  for (const m of mounts) args.push(m.writable ? '--bind' : '--ro-bind', m.host, m.inside);
  args.push('--chdir', step.cwd, '--');
  return args;
}

/** prlimit, then (a root server) the switch to the job's user, then the command. */
function confined(config: SandboxConfig, step: Step): string[] {
  const limits = config.runnerLimits;
  const out = ['prlimit', `--nproc=${limits.processes}`, `--fsize=${limits.diskBytes}`, '--'];
  if (step.user) out.push('setpriv', `--reuid=${step.user.uid}`, `--regid=${step.user.gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--');
  return [...out, ...step.command];
}

/** The program and arguments that run `step`: cgroup launcher, sandbox, limits, user, command. */
export function stepCommand(config: SandboxConfig, step: Step): { file: string; args: string[]; cwd: string } {
  let argv = confined(config, step);
  let cwd = step.cwd;
  if (config.runnerSandbox === 'bwrap') {
    argv = [config.runnerBwrap, ...bwrapArgs(config, step), ...argv];
    cwd = '/';
  }
  if (step.cgroup?.procsFiles.length) {
    // The launcher enters the job's cgroup itself before it execs: nothing of the step runs outside.
    const enter = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
    argv = ['/bin/sh', '-c', enter, 'wharf-step', ...step.cgroup.procsFiles, '--', ...argv];
  }
  return { file: argv[0], args: argv.slice(1), cwd };
}

/**
 * Makes one sandbox that runs `true`, as a job's would be made; throws with what to do when it
 * cannot (bwrap missing, namespaces refused). Nothing to check with WHARF_RUNNER_SANDBOX=none.
 */
export function probeSandbox(config: SandboxConfig): void {
  if (config.runnerSandbox === 'none') return;
  try {
    execFileSync(config.runnerBwrap, [...bwrapArgs(config, { mounts: [], cwd: '/' }), 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  } catch (err) {
    const detail = ((err as { stderr?: Buffer }).stderr?.toString() || (err as Error).message).trim().split('\n')[0];
    throw new Error(
      `WHARF_RUNNER=shell: the CI job sandbox cannot be made (${detail}). Install bubblewrap (Debian's package \`bubblewrap\`) on a kernel with namespaces, or set WHARF_RUNNER_SANDBOX=none to run jobs unconfined, knowing that whoever can push a .gitlab-ci.yml then runs code on this machine beside the server.`,
    );
  }
}
