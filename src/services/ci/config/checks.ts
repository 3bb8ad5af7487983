// GitLab 10.8's CI config value checks (Ci::Config::Entry::LegacyValidationHelpers and
// Validators): which YAML values count as a string, an array of strings, a `/regex/`, a
// boolean, a duration, a variables hash. Symbols do not exist here: YAML strings only.
import { parseDuration } from '../../issuables/time_tracking.js';

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isArrayOfStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
export const isBoolean = (v: unknown): v is boolean => v === true || v === false;
export const isHash = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Ruby's `blank?`: nil, false, empty string/array/hash, whitespace-only string. */
export function isBlank(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (isHash(v)) return Object.keys(v).length === 0;
  return false;
}

/** Compiles a regex source as GitLab's `Regexp.new` check does (compile only, never run here). */
export function isRegexp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** A plain string, or `/…/` whose inside compiles. */
function isStringOrRegexp(v: unknown): boolean {
  if (!isString(v)) return false;
  if (v.length >= 2 && v.startsWith('/') && v.endsWith('/')) return isRegexp(v.slice(1, -1));
  return true;
}

export const isArrayOfStringsOrRegexps = (v: unknown): boolean => Array.isArray(v) && v.every(isStringOrRegexp);

export const isDuration = (v: unknown): boolean => isString(v) && parseDuration(v) !== null;

/** Keys and values strings or integers (GitLab's validate_variables). */
export function isVariables(v: unknown): v is Record<string, string | number> {
  return isHash(v) && Object.values(v).every((x) => isString(x) || Number.isInteger(x));
}

/** GitLab's environment_name_regex, checked without a regex: allowed characters, no '/' at either end. */
export function isEnvironmentName(name: string): boolean {
  if (name.length === 0 || name.startsWith('/') || name.endsWith('/')) return false;
  for (const ch of name) {
    const ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || '_/${}. -'.includes(ch);
    if (!ok) return false;
  }
  return true;
}

export const ENVIRONMENT_NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";

/** `config contains unknown keys: a, b` or null. */
export function unknownKeys(config: Record<string, unknown>, allowed: readonly string[]): string | null {
  const extra = Object.keys(config).filter((k) => !allowed.includes(k));
  return extra.length > 0 ? `config contains unknown keys: ${extra.join(', ')}` : null;
}
