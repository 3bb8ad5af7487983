// The nested entries of a GitLab 10.8 CI job (Ci::Config::Entry::Script, Commands, Policy,
// Artifacts, Environment, Coverage, Variables): each returns its first error as GitLab words
// it, prefixed by its location (`jobs:build:artifacts`), or null when valid.
import {
  ENVIRONMENT_NAME_MESSAGE,
  isArrayOfStrings,
  isArrayOfStringsOrRegexps,
  isBlank,
  isBoolean,
  isDuration,
  isEnvironmentName,
  isHash,
  isRegexp,
  isString,
  isVariables,
  unknownKeys,
} from './checks.js';

type Check = (at: string, v: unknown) => string | null;

/** before_script / after_script: an array of strings. */
export const checkScript: Check = (at, v) => (isArrayOfStrings(v) ? null : `${at} config should be an array of strings`);

/** script: a string or an array of strings. */
export const checkCommands: Check = (at, v) => (isString(v) || isArrayOfStrings(v) ? null : `${at} config should be a string or an array of strings`);

export const checkStages: Check = (at, v) => (isArrayOfStrings(v) ? null : `${at} config should be an array of strings`);

export const checkVariables: Check = (at, v) => (isVariables(v) ? null : `${at} config should be a hash of key value pairs`);

export const checkCoverage: Check = (at, v) => {
  const ok = isString(v) && v.length >= 2 && v.startsWith('/') && v.endsWith('/') && isRegexp(v.slice(1, -1));
  return ok ? null : `${at} config must be a regular expression`;
};

/** only / except: an array of refs, or a hash of refs / kubernetes / variables. */
export const checkPolicy: Check = (at, v) => {
  if (Array.isArray(v)) return isArrayOfStringsOrRegexps(v) ? null : `${at} config should be an array of strings or regexps`;
  if (!isHash(v)) return `${at} has to be either an array of conditions or a hash`;
  const unknown = unknownKeys(v, ['refs', 'kubernetes', 'variables']);
  if (unknown) return `${at} ${unknown}`;
  if (isBlank(v)) return `${at} config can't be blank`;
  if (v.refs != null && !isArrayOfStringsOrRegexps(v.refs)) return `${at} refs should be an array of strings or regexps`;
  if (v.kubernetes != null && v.kubernetes !== 'active') return `${at} kubernetes unknown value: ${String(v.kubernetes)}`;
  if (v.variables != null && !isArrayOfStrings(v.variables)) return `${at} variables should be an array of strings`;
  return null;
};

const ARTIFACT_KEYS = ['name', 'untracked', 'paths', 'when', 'expire_in'];

export const checkArtifacts: Check = (at, v) => {
  if (!isHash(v)) return `${at} config should be a hash`;
  const unknown = unknownKeys(v, ARTIFACT_KEYS);
  if (unknown) return `${at} ${unknown}`;
  if (v.name != null && !isString(v.name)) return `${at} name should be a string`;
  if (v.untracked != null && !isBoolean(v.untracked)) return `${at} untracked should be a boolean value`;
  if (v.paths != null && !isArrayOfStrings(v.paths)) return `${at} paths should be an array of strings`;
  if (v.when != null && !['on_success', 'on_failure', 'always'].includes(v.when as string)) {
    return `${at} when should be on_success, on_failure or always`;
  }
  if (v.expire_in != null && !isDuration(v.expire_in)) return `${at} expire in should be a duration`;
  return null;
};

const ENVIRONMENT_KEYS = ['name', 'url', 'action', 'on_stop'];

export const checkEnvironment: Check = (at, v) => {
  if (!isHash(v) && !isString(v)) return `${at} config should be a hash or a string`;
  const name = isString(v) ? v : v.name;
  if (isBlank(name)) return `${at} name can't be blank`;
  if (!isString(name) || !isEnvironmentName(name)) return `${at} name ${ENVIRONMENT_NAME_MESSAGE}`;
  if (isString(v)) return null;
  const unknown = unknownKeys(v, ENVIRONMENT_KEYS);
  if (unknown) return `${at} ${unknown}`;
  if (v.url != null && String(v.url).length > 255) return `${at} url is too long (maximum is 255 characters)`;
  if (v.action != null && v.action !== 'start' && v.action !== 'stop') return `${at} action should be start or stop`;
  if (v.on_stop != null && !isString(v.on_stop)) return `${at} on stop should be a string`;
  return null;
};
