// One CI job run by the built-in shell runner, as GitLab Runner's shell executor does it: a
// fresh checkout of the pipeline's commit, earlier stages' artifacts unpacked (dependencies),
// `before_script` + `script` in one bash (stopping at the first failing command),
// `after_script` always in another, the trace streamed to its file, the artifacts collected
// (`artifacts: when`), the coverage read, and the job moved to `success` or `failed` through
// transitionBuild. Every step runs in the job's sandbox (sandbox.ts, job_space.ts) as the job's
// own user; the server itself only clones the commit into the job's folder before any of the
// job's code runs. A timeout (the project's build_timeout), a cancel (the row seen `canceled`)
// or a stop kills the running step with everything it started.
import fs from 'node:fs';
import os from 'node:os';
import type { Deps } from '../../../deps.js';
import type { BuildRow, PipelineRow } from '../../../store/ci_rows.js';
import type { ProjectWithNamespace, UserRow } from '../../../store/rows.js';
import { fullPathOf, gitdirOf, withNamespaces } from '../../../finders/projects.js';
import { variablesForJob } from '../../../finders/ci_variables.js';
import { revealValue } from '../variable_values.js';
import { isProtected } from '../../../policy/branches.js';
import { transitionBuild } from '../build_transitions.js';
import { checkout } from './checkout.js';
import { jobProcessEnv, jobVariables, parseJson, type JobFacts } from './job_env.js';
import { artifactsFilename } from './artifacts_name.js';
import { shellScript } from './shell_script.js';
import { runControlled, type RunControl, type StopReason } from './run_shell.js';
import { TraceWriter } from './trace.js';
import { traceFile } from './storage.js';
import { parseCoverage } from './coverage.js';
import { unpackDependencies } from './dependencies.js';
import { collectArtifacts, type ArtifactsOptions } from './collect_artifacts.js';
import { JobSpace } from './job_space.js';
import { watchDisk } from './disk_watch.js';
import { findUserById } from '../../../finders/users.js';

export type { RunControl } from './run_shell.js';

interface JobOptions {
  before_script?: string[];
  script?: string[];
  after_script?: string[];
  artifacts?: ArtifactsOptions & { when?: string; name?: string };
  dependencies?: string[];
}

/** Project#protected_for?: a protected branch (Wharf has no protected tags yet: a tag is not). */
async function protectedRef(deps: Deps, project: ProjectWithNamespace, build: BuildRow): Promise<boolean> {
  if (build.tag) return false;
  return isProtected(deps.db, project, build.ref);
}

export async function runJob(deps: Deps, build: BuildRow, token: string, control: RunControl): Promise<void> {
  const pipeline: PipelineRow = await deps.db('ci_pipelines').where({ id: build.pipeline_id }).first();
  const [project] = await withNamespaces(deps.db, [await deps.db('projects').where({ id: build.project_id }).first()]);
  const user: UserRow | undefined = build.user_id ? await findUserById(deps.db, build.user_id) : undefined;
  const options = parseJson<JobOptions>(build.options, {});
  const space = new JobSpace(deps.config, build.id, fullPathOf(project));
  const trace = new TraceWriter(traceFile(deps, build.project_id, build.id));
  let outcome: 'success' | 'failed' = 'failed';
  let stopWatching = () => {};
  const changes: Partial<BuildRow> = { runner_owner: null, lease_until: null };
  try {
    trace.note(`Running with Wharf's shell runner on ${os.hostname()}`);
    trace.note(`Fetching changes and checking out ${pipeline.sha.slice(0, 8)} as ${build.ref}...`);
    await checkout(gitdirOf(deps.repos, project), pipeline.sha, space.hostProject, space.work);
    await space.prepare();
    stopWatching = watchDisk(space.ownFolders, deps.config.runnerLimits.diskBytes, () => control.stop('disk'));
    const stored = await variablesForJob(deps.db, project, await protectedRef(deps, project, build));
    const secrets = stored.map((v) => ({ key: v.key, value: revealValue(deps.config, v.value) }));
    const facts: JobFacts = { build, pipeline, project, user, token, projectDir: space.projectDir, home: space.home, externalUrl: deps.config.externalUrl, secrets };
    const env = jobProcessEnv(facts);
    const script = (name: string, commands: string[]) => space.step(['bash', '--noprofile', '--norc', space.readOnlyFile(name, shellScript(commands, space.projectDir))]);
    let code: number | null = 1;
    if (await unpackDependencies(deps, build, options.dependencies, space, trace, control)) {
      code = await runControlled(space.config, script('script.sh', [...(options.before_script ?? []), ...(options.script ?? [])]), env, trace, control);
    } else trace.note('ERROR: Job failed: the artifacts of the dependencies could not be unpacked');
    const stopped = control.stopReason();
    if (stopped) trace.note(stopMessage(stopped, project.build_timeout, deps.config.runnerLimits.diskBytes));
    else if (code !== 0)
      trace.note(
        space.oomKilled() ? `ERROR: Job failed: out of memory (the job's limit is ${deps.config.runnerLimits.memoryBytes} bytes)` : `ERROR: Job failed: exit code ${code ?? 1}`,
      );
    outcome = code === 0 && !stopped ? 'success' : 'failed';
    if (options.after_script?.length && stopped !== 'canceled' && stopped !== 'shutdown') {
      trace.note('Running after script...');
      await runControlled(space.config, script('after.sh', options.after_script), env, trace, control);
    }
    if (options.artifacts?.paths?.length && !control.stopReason()) {
      const when = options.artifacts.when ?? 'on_success';
      if (when === 'always' || (when === 'on_success') === (outcome === 'success')) {
        const filename = artifactsFilename(options.artifacts.name, jobVariables({ ...facts, secrets: [] }));
        const collected = await collectArtifacts(deps, build, space, options.artifacts, filename, trace, control);
        Object.assign(changes, collected.changes);
        if (collected.failed) outcome = 'failed';
      }
    }
    if (outcome === 'success') trace.note('Job succeeded');
  } catch (err) {
    trace.note(`ERROR: Job failed (system failure): ${(err as Error).message.split('\n')[0]}`);
    outcome = 'failed';
  } finally {
    stopWatching();
    trace.close();
    await space.dispose();
  }
  if (build.coverage_regex) {
    const text = fs.readFileSync(traceFile(deps, build.project_id, build.id), 'utf8');
    const coverage = await parseCoverage(build.coverage_regex, text);
    if (coverage !== null) changes.coverage = coverage;
  }
  // A job canceled meanwhile stays canceled (transitionBuild refuses the move); its lease goes.
  if (!(await transitionBuild(deps.db, build.id, outcome, changes))) {
    await deps
      .db('ci_builds')
      .where({ id: build.id })
      .update({ runner_owner: null, lease_until: null, coverage: changes.coverage ?? null });
  }
}

function stopMessage(reason: StopReason, timeout: number, diskBytes: number): string {
  if (reason === 'disk') return `ERROR: Job failed: the job's files took more than ${diskBytes} bytes`;
  if (reason === 'timeout') return `ERROR: Job failed: execution took longer than ${timeout} seconds`;
  if (reason === 'canceled') return 'ERROR: Job failed: canceled';
  return 'ERROR: Job failed: the server stopped while the job was running';
}
