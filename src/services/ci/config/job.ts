// One visible job of a GitLab 10.8 .gitlab-ci.yml (Ci::Config::Entry::Job): its own checks in
// GitLab's order (unknown keys, blank config, script, tags, allow_failure, retry, when,
// dependencies), then its entries in declaration order; the first error wins. Returns the
// job as pipeline creation needs it, global before/after_script, image and variables folded in.
import { isArrayOfStrings, isBlank, isBoolean, isHash, unknownKeys } from './checks.js';
import { checkArtifacts, checkCommands, checkCoverage, checkEnvironment, checkPolicy, checkScript, checkVariables } from './entries.js';
import { CiConfigError, type CiEnvironment, type CiJob, type RefPolicy } from './types.js';

const JOB_KEYS = [
  'tags',
  'script',
  'only',
  'except',
  'type',
  'image',
  'services',
  'allow_failure',
  'stage',
  'when',
  'artifacts',
  'cache',
  'dependencies',
  'before_script',
  'after_script',
  'variables',
  'environment',
  'coverage',
  'retry',
] as const;

const WHENS = ['on_success', 'on_failure', 'always', 'manual'];

/** What a job inherits from the top level of the file. */
export interface JobDefaults {
  beforeScript?: string[];
  afterScript?: string[];
  image?: unknown;
  services?: unknown;
  variables: Record<string, string>;
}

/** The job's first error as GitLab 10.8 words it, or null. */
export function jobError(name: string, config: unknown): string | null {
  const at = `jobs:${name}`;
  if (!isHash(config)) return `${at} config should be a hash`;
  const unknown = unknownKeys(config, JOB_KEYS);
  if (unknown) return `${at} ${unknown}`;
  if (isBlank(config)) return `${at} config can't be blank`;
  if (isBlank(config.script)) return `${at} script can't be blank`;
  if (config.tags != null && !isArrayOfStrings(config.tags)) return `${at} tags should be an array of strings`;
  if (config.allow_failure != null && !isBoolean(config.allow_failure)) return `${at} allow failure should be a boolean value`;
  const retry = retryError(config.retry);
  if (retry) return `${at} retry ${retry}`;
  if (config.when != null && !WHENS.includes(config.when as string)) {
    return `${at} when should be on_success, on_failure, always or manual`;
  }
  if (config.dependencies != null && !isArrayOfStrings(config.dependencies)) {
    return `${at} dependencies should be an array of strings`;
  }
  const entries: [string, (at: string, v: unknown) => string | null][] = [
    ['before_script', checkScript],
    ['script', checkCommands],
    ['stage', stageCheck],
    ['type', stageCheck],
    ['after_script', checkScript],
    ['only', checkPolicy],
    ['except', checkPolicy],
    ['variables', checkVariables],
    ['artifacts', checkArtifacts],
    ['environment', checkEnvironment],
    ['coverage', checkCoverage],
  ];
  for (const [key, check] of entries) {
    if (config[key] === undefined || config[key] === null) continue;
    const error = check(`${at}:${key}`, config[key]);
    if (error) return error;
  }
  return null;
}

function stageCheck(at: string, v: unknown): string | null {
  return typeof v === 'string' ? null : `${at} config should be a string`;
}

function retryError(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number') return 'is not a number';
  if (!Number.isInteger(v)) return 'must be an integer';
  if (v < 0) return 'must be greater than or equal to 0';
  if (v > 2) return 'must be less than or equal to 2';
  return null;
}

/** Builds the job from a config that jobError accepted. */
export function buildJob(name: string, c: Record<string, unknown>, stages: string[], d: JobDefaults): CiJob {
  const stage = (c.stage ?? c.type ?? 'test') as string;
  const stageIdx = stages.indexOf(stage);
  if (stageIdx < 0) throw new CiConfigError(`${name} job: stage parameter should be ${stages.join(', ')}`);
  const env = c.environment;
  const environment: CiEnvironment | undefined = env == null ? undefined : typeof env === 'string' ? { name: env } : (env as CiEnvironment);
  const script = typeof c.script === 'string' ? [c.script] : (c.script as string[]);
  const when = (c.when ?? 'on_success') as CiJob['when'];
  return {
    name,
    stage,
    stageIdx,
    script,
    when,
    beforeScript: (c.before_script as string[] | undefined) ?? d.beforeScript ?? [],
    afterScript: (c.after_script as string[] | undefined) ?? d.afterScript ?? [],
    // GitLab 10.8: a manual job is allowed to fail unless it says otherwise.
    allowFailure: c.allow_failure === undefined || c.allow_failure === null ? when === 'manual' : (c.allow_failure as boolean),
    environment,
    artifacts: c.artifacts as CiJob['artifacts'],
    dependencies: c.dependencies as string[] | undefined,
    coverage: c.coverage == null ? undefined : (c.coverage as string).slice(1, -1),
    retry: c.retry as number | undefined,
    tags: (c.tags as string[] | undefined) ?? [],
    image: c.image ?? d.image,
    services: c.services ?? d.services,
    only: policyOf(c.only) ?? { refs: ['branches', 'tags'] },
    except: policyOf(c.except),
    variables: { ...d.variables, ...stringify(c.variables) },
  };
}

function policyOf(v: unknown): RefPolicy | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? { refs: v as string[] } : (v as RefPolicy);
}

/** YAML integers become strings, as GitLab stores variable values. */
export function stringify(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isHash(v)) return out;
  for (const [k, x] of Object.entries(v)) out[k] = String(x);
  return out;
}
