// The model rules a group must satisfy (GitLab 10.8's Namespace, Group and Route validations),
// reported as GitLab reports them: errors keyed by attribute, in the order GitLab adds them.

import { NAMESPACE_PATH_MESSAGE, reservedFullPath, validNamespacePath } from './namespace_rules.js';

const NAME = /^[\p{Alphabetic}\p{Nd}\p{Pd}_. ]*$/u;
const NAME_MESSAGE = "can contain only letters, digits, '_', '.', dash and space.";

const MAX_LENGTH = 255;
const TOO_LONG = `is too long (maximum is ${MAX_LENGTH} characters)`;
const BLANK = "can't be blank";
/** GitLab refuses nesting deeper than this many ancestors. */
const MAX_ANCESTORS = 20;

export type Errors = Record<string, string[]>;

function add(errors: Errors, key: string, message: string): void {
  (errors[key] ??= []).push(message);
}

export interface GroupAttributes {
  name: string;
  path: string;
  description: string;
  /** The full path the route would get (parent's full path + path). */
  fullPath: string;
  /** Ancestors the group would have. */
  ancestorCount: number;
  /** Messages of the visibility rules that failed (parent, projects, subgroups). */
  visibilityErrors: string[];
  /** Another namespace or project already uses the full path. */
  fullPathTaken: boolean;
}

/** Every failed rule, keyed and ordered as GitLab's `errors.messages`. */
export function groupErrors(a: GroupAttributes): Errors {
  const errors: Errors = {};
  if (a.name.trim() === '') add(errors, 'name', BLANK);
  if (a.name.length > MAX_LENGTH) add(errors, 'name', TOO_LONG);
  if (!NAME.test(a.name)) add(errors, 'name', NAME_MESSAGE);
  if (a.description.length > MAX_LENGTH) add(errors, 'description', TOO_LONG);
  if (a.path.trim() === '') add(errors, 'path', BLANK);
  if (a.path.length > MAX_LENGTH) add(errors, 'path', TOO_LONG);
  if (!validNamespacePath(a.path)) add(errors, 'path', NAMESPACE_PATH_MESSAGE);
  else if (reservedFullPath(a.fullPath)) add(errors, 'path', `${a.path} is a reserved name`);
  if (a.ancestorCount > MAX_ANCESTORS) add(errors, 'parent_id', 'has too deep level of nesting');
  for (const message of a.visibilityErrors) add(errors, 'visibility_level', message);
  // The route's own rules come last: GitLab moves them onto `path` after validating.
  if (a.fullPath.length < 1) add(errors, 'path', 'is too short (minimum is 1 character)');
  if (a.fullPath.length > MAX_LENGTH) add(errors, 'path', TOO_LONG);
  if (a.fullPath.trim() === '') add(errors, 'path', BLANK);
  if (a.fullPathTaken) add(errors, 'path', 'has already been taken');
  return errors;
}

/** A string as Ruby's `inspect` writes it. */
function rubyString(s: string): string {
  const escaped = s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/#(?=[{$@])/g, '\\#');
  return `"${escaped}"`;
}

/** Errors as Ruby prints the hash: `{:path=>["has already been taken"]}` (GitLab puts it in messages). */
export function rubyInspect(errors: Errors): string {
  const entries = Object.entries(errors).map(([k, v]) => `:${k}=>[${v.map(rubyString).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}
