// One CI job run by the built-in shell runner, as GitLab Runner's shell executor does it: a
// fresh checkout of the pipeline's commit in a temp folder, `before_script` + `script` in one
// bash (stopping at the first failing command), `after_script` always in another, the trace
// streamed to its file, the artifacts collected (`artifacts: when`), the coverage read, and
// the job moved to `success` or `failed` through transitionBuild. A timeout (the project's
// build_timeout), a cancel (the row seen `canceled`) or a stop kills the process group.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../../../deps.js';
import type { BuildRow, PipelineRow } from '../../../store/ci_rows.js';
import type { ProjectWithNamespace, UserRow } from '../../../store/rows.js';
import { fullPathOf, withNamespaces } from '../../../finders/projects.js';
import { variablesForJob } from '../../../finders/ci_variables.js';
import { revealValue } from '../variable_values.js';
import { isProtected } from '../../../policy/branches.js';
import { transitionBuild } from '../build_transitions.js';
import { checkout } from './checkout.js';
import { jobProcessEnv, jobVariables, parseJson, type JobFacts } from './job_env.js';
import { artifactsFilename } from './artifacts_name.js';
import { shellScript } from './shell_script.js';
import { jobProcessLimit } from './process_limit.js';
import { runShell, type StopReason } from './run_shell.js';
import { TraceWriter } from './trace.js';
import { artifactsFile, traceFile } from './storage.js';
import { selectArtifacts } from './artifact_paths.js';
import { expireInSeconds, writeZip } from './artifacts.js';
import { parseCoverage } from './coverage.js';
import { unpackDependencies } from './dependencies.js';
import { giveTo, jobUser, type JobUser } from './job_user.js';

interface JobOptions {
  before_script?: string[];
  script?: string[];
  after_script?: string[];
  artifacts?: { paths?: string[]; when?: string; expire_in?: string; name?: string };
  dependencies?: string[];
}

export interface RunControl {
  /** Set by the runner when the job must stop (a cancel seen, the timeout, the server stopping). */
  stopReason(): StopReason | null;
  /** Registers the kill of the current shell run. */
  onKill(kill: (() => void) | null): void;
}

/** Project#protected_for?: a protected branch (Wharf has no protected tags yet: a tag is not). */
async function protectedRef(deps: Deps, project: ProjectWithNamespace, build: BuildRow): Promise<boolean> {
  if (build.tag) return false;
  return isProtected(deps.db, project, build.ref);
}

export async function runJob(deps: Deps, build: BuildRow, token: string, control: RunControl): Promise<void> {
  const pipeline: PipelineRow = await deps.db('ci_pipelines').where({ id: build.pipeline_id }).first();
  const [project] = await withNamespaces(deps.db, [await deps.db('projects').where({ id: build.project_id }).first()]);
  const user: UserRow | undefined = build.user_id ? await deps.db('users').where({ id: build.user_id }).first() : undefined;
  const options = parseJson<JobOptions>(build.options, {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `wharf-build-${build.id}-`));
  const projectDir = path.join(work, 'project');
  const home = path.join(work, 'home');
  fs.mkdirSync(home);
  const trace = new TraceWriter(traceFile(deps, build.project_id, build.id));
  let outcome: 'success' | 'failed' = 'failed';
  const changes: Partial<BuildRow> = { runner_owner: null, lease_until: null };
  try {
    trace.note(`Running with Wharf's shell runner on ${os.hostname()}`);
    trace.note(`Fetching changes and checking out ${pipeline.sha.slice(0, 8)} as ${build.ref}...`);
    const runAs = jobUser(deps.config);
    await checkout(deps.repos.pathFor(fullPathOf(project)), pipeline.sha, projectDir, home, runAs !== null);
    await unpackDependencies(deps, build, options.dependencies, projectDir, trace);
    if (runAs) await giveTo(work, runAs);
    const stored = await variablesForJob(deps.db, project, await protectedRef(deps, project, build));
    const secrets = stored.map((v) => ({ key: v.key, value: revealValue(deps.config, v.value) }));
    const facts: JobFacts = { build, pipeline, project, user, token, projectDir, home, externalUrl: deps.config.externalUrl, secrets };
    const env = jobProcessEnv(facts);
    const limit = jobProcessLimit(runAs?.uid);
    const main = [...(options.before_script ?? []), ...(options.script ?? [])];
    const code = await runStep(path.join(work, 'script.sh'), shellScript(main, { dir: projectDir, maxProcesses: limit }), env, projectDir, trace, control, runAs);
    const stopped = control.stopReason();
    if (stopped) trace.note(stopMessage(stopped, project.build_timeout));
    else if (code !== 0) trace.note(`ERROR: Job failed: exit code ${code ?? 1}`);
    outcome = code === 0 && !stopped ? 'success' : 'failed';
    if (options.after_script?.length && stopped !== 'canceled' && stopped !== 'shutdown') {
      trace.note('Running after script...');
      await runStep(path.join(work, 'after.sh'), shellScript(options.after_script, { dir: projectDir, maxProcesses: limit }), env, projectDir, trace, control, runAs);
    }
    if (options.artifacts?.paths?.length && stopped !== 'canceled') {
      const when = options.artifacts.when ?? 'on_success';
      if (when === 'always' || (when === 'on_success') === (outcome === 'success')) {
        const filename = artifactsFilename(options.artifacts.name, jobVariables({ ...facts, secrets: [] }));
        Object.assign(changes, await collectArtifacts(deps, build, projectDir, options.artifacts, filename, trace));
      }
    }
    if (outcome === 'success') trace.note('Job succeeded');
  } catch (err) {
    trace.note(`ERROR: Job failed (system failure): ${(err as Error).message.split('\n')[0]}`);
    outcome = 'failed';
  } finally {
    trace.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (build.coverage_regex) {
    const text = fs.readFileSync(traceFile(deps, build.project_id, build.id), 'utf8');
    const coverage = await parseCoverage(build.coverage_regex, text);
    if (coverage !== null) changes.coverage = coverage;
  }
  // A job canceled meanwhile stays canceled (transitionBuild refuses the move); its lease goes.
  if (!(await transitionBuild(deps.db, build.id, outcome, changes))) {
    await deps.db('ci_builds').where({ id: build.id }).update({ runner_owner: null, lease_until: null, coverage: changes.coverage ?? null });
  }
}

function stopMessage(reason: StopReason, timeout: number): string {
  if (reason === 'timeout') return `ERROR: Job failed: execution took longer than ${timeout} seconds`;
  if (reason === 'canceled') return 'ERROR: Job failed: canceled';
  return 'ERROR: Job failed: the server stopped while the job was running';
}

async function runStep(file: string, script: string, env: Record<string, string>, cwd: string, trace: TraceWriter, control: RunControl, runAs: JobUser | null): Promise<number | null> {
  if (control.stopReason()) return null;
  const run = runShell(file, script, env, cwd, trace, runAs);
  control.onKill(run.kill);
  try {
    return await run.done;
  } finally {
    control.onKill(null);
  }
}

async function collectArtifacts(deps: Deps, build: BuildRow, projectDir: string, a: NonNullable<JobOptions['artifacts']>, filename: string, trace: TraceWriter): Promise<Partial<BuildRow>> {
  trace.note('Uploading artifacts...');
  const { files, refused } = selectArtifacts(projectDir, a.paths ?? []);
  for (const line of refused) trace.note(`WARNING: ${line}`);
  if (!files.length) {
    trace.note('WARNING: no files to archive');
    return {};
  }
  const size = await writeZip(projectDir, files, artifactsFile(deps, build.project_id, build.id));
  trace.note(`${files.length} files archived (${size} bytes)`);
  const expire = expireInSeconds(a.expire_in);
  return {
    artifacts_file: filename,
    artifacts_size: size,
    artifacts_expire_at: expire === null ? null : new Date(Date.now() + expire * 1000).toISOString(),
  };
}
