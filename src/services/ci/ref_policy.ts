// GitLab 10.8's only/except on refs (Gitlab::Ci::Build::Policy::Refs): a job runs when its
// `only` matches and its `except` does not. Patterns: `branches`, `tags`, `api`, `pushes`,
// `web`, `triggers`, `schedules`, `external`, a `/regex/` tried on the ref name, or a ref name.
// The regexes are the project's own config, written by anyone who can push: one that
// backtracks without end (`/^(a+)+$/`) must not hold the event loop, so each is tried against
// the ref name (≤ 255 bytes) in a V8 context that is stopped after REGEX_TIMEOUT_MS; a regex
// stopped so does not match.
import vm from 'node:vm';
import type { RefPolicy } from './config/types.js';

const REGEX_TIMEOUT_MS = 50;
const regexContext = vm.createContext({ pattern: '', input: '' });
const regexTest = new vm.Script('new RegExp(pattern).test(input)');

/** `new RegExp(source).test(input)`, given at most REGEX_TIMEOUT_MS; false when invalid or stopped. */
export function boundedRegexTest(source: string, input: string): boolean {
  regexContext.pattern = source;
  regexContext.input = input;
  try {
    return regexTest.runInContext(regexContext, { timeout: REGEX_TIMEOUT_MS }) === true;
  } catch {
    return false;
  }
}

export interface RefFacts {
  ref: string;
  tag: boolean;
  source: string;
}

const SOURCE_KEYWORDS: Record<string, string> = {
  api: 'api',
  pushes: 'push',
  web: 'web',
  triggers: 'trigger',
  schedules: 'schedule',
  external: 'external',
};

function matches(pattern: string, facts: RefFacts): boolean {
  if (pattern === 'branches') return !facts.tag;
  if (pattern === 'tags') return facts.tag;
  if (SOURCE_KEYWORDS[pattern]) return SOURCE_KEYWORDS[pattern] === facts.source;
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    return boundedRegexTest(pattern.slice(1, -1), facts.ref.slice(0, 255));
  }
  return pattern === facts.ref;
}

/** Whether a job with these policies belongs in a pipeline for this ref and source. */
export function jobRunsFor(only: RefPolicy, except: RefPolicy | undefined, facts: RefFacts): boolean {
  const onlyRefs = only.refs;
  if (onlyRefs && !onlyRefs.some((p) => matches(p, facts))) return false;
  if (except?.refs && except.refs.some((p) => matches(p, facts))) return false;
  return true;
}
