// GitLab 10.8's Gitlab::Ci::YamlProcessor: a .gitlab-ci.yml text to stages and jobs, or a
// CiConfigError whose message is the one GitLab stores in `yaml_errors` (e.g. `jobs:build
// script can't be blank`, `build job: stage parameter should be build, test, deploy`).
// Top-level keys that are not global keywords are jobs; `.name` jobs are hidden templates.
import { isBlank, isHash } from './checks.js';
import { checkScript, checkStages, checkVariables } from './entries.js';
import { buildJob, jobError, stringify } from './job.js';
import { loadCiYaml } from './load.js';
import { CiConfigError, type CiConfig, type CiJob } from './types.js';

const GLOBAL_KEYS = ['before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'types', 'cache'];
const DEFAULT_STAGES = ['build', 'test', 'deploy'];

/** Parses and validates; throws CiConfigError. */
export function parseCiConfig(text: string): CiConfig {
  if (isBlank(text)) throw new CiConfigError('Please provide content of .gitlab-ci.yml');
  const raw = loadCiYaml(text);
  const globalError = globalsError(raw);
  if (globalError) throw new CiConfigError(globalError);
  const jobNames = Object.keys(raw).filter((k) => !GLOBAL_KEYS.includes(k));
  const visible = jobNames.filter((n) => !n.startsWith('.'));
  if (visible.length === 0) throw new CiConfigError('jobs config should contain at least one visible job');
  for (const name of jobNames) {
    const error = name.startsWith('.') ? hiddenError(name, raw[name]) : jobError(name, raw[name] ?? {});
    if (error) throw new CiConfigError(error);
  }
  const stages = (raw.stages ?? raw.types ?? DEFAULT_STAGES) as string[];
  const defaults = {
    beforeScript: raw.before_script as string[] | undefined,
    afterScript: raw.after_script as string[] | undefined,
    image: raw.image,
    services: raw.services,
    variables: stringify(raw.variables),
  };
  const jobs = visible.map((n) => buildJob(n, raw[n] as Record<string, unknown>, stages, defaults));
  for (const job of jobs) checkDependencies(job, jobs, stages);
  return { stages, jobs };
}

function globalsError(raw: Record<string, unknown>): string | null {
  const checks: [string, (at: string, v: unknown) => string | null][] = [
    ['before_script', checkScript],
    ['after_script', checkScript],
    ['variables', checkVariables],
    ['stages', checkStages],
    ['types', checkStages],
  ];
  for (const [key, check] of checks) {
    if (raw[key] === undefined || raw[key] === null) continue;
    const error = check(key, raw[key]);
    if (error) return error;
  }
  if (raw.cache != null && !isHash(raw.cache)) return 'cache config should be a hash';
  return null;
}

function hiddenError(name: string, config: unknown): string | null {
  return isBlank(config) ? `jobs:${name} config can't be blank` : null;
}

function checkDependencies(job: CiJob, jobs: CiJob[], stages: string[]): void {
  for (const dep of job.dependencies ?? []) {
    const other = jobs.find((j) => j.name === dep);
    if (!other) throw new CiConfigError(`${job.name} job: undefined dependency: ${dep}`);
    if (stages.indexOf(other.stage) >= job.stageIdx) {
      throw new CiConfigError(`${job.name} job: dependency ${dep} is not defined in prior stages`);
    }
  }
}
