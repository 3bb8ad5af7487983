// GitLab 10.8's only/except on refs (Gitlab::Ci::Build::Policy::Refs): a job runs when its
// `only` matches and its `except` does not. Patterns: `branches`, `tags`, `api`, `pushes`,
// `web`, `triggers`, `schedules`, `external`, a `/regex/` tried on the ref name, or a ref name.
// The regexes are the project's own config, tried only against a ref name (≤ 255 bytes).
import type { RefPolicy } from '../ci_config/types.js';

export interface RefFacts {
  ref: string;
  tag: boolean;
  source: string;
}

const SOURCE_KEYWORDS: Record<string, string> = {
  api: 'api', pushes: 'push', web: 'web', triggers: 'trigger', schedules: 'schedule', external: 'external',
};

function matches(pattern: string, facts: RefFacts): boolean {
  if (pattern === 'branches') return !facts.tag;
  if (pattern === 'tags') return facts.tag;
  if (SOURCE_KEYWORDS[pattern]) return SOURCE_KEYWORDS[pattern] === facts.source;
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    try {
      return new RegExp(pattern.slice(1, -1)).test(facts.ref.slice(0, 255));
    } catch {
      return false;
    }
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
