// Loading .gitlab-ci.yml text into plain data, as GitLab 10.8's Ci::Config::Loader does with
// YAML.safe_load (aliases allowed, no arbitrary objects, a non-mapping document is "Invalid
// configuration format"). Differences that keep the server safe: the text is refused above
// MAX_CI_CONFIG_BYTES before parsing, and alias expansion is bounded (the `yaml` package's
// maxAliasCount), so a "billion laughs" file is an error, not an out-of-memory.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { CiConfigError } from './types.js';

/** The `yaml` package, loaded on the first CI file read (10 MB a process without CI never needs). */
let yaml: typeof Yaml | undefined;
function parseDocument(text: string, options: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions) {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml.parseDocument(text, options);
}

/** Larger configs are refused unparsed (GitLab 10.8 has no limit; 1 MiB is generous). */
const MAX_CI_CONFIG_BYTES = 1024 * 1024;
/** How many alias dereferences one document may make (anchors reused as job templates). */
const MAX_ALIASES = 100;

/** Parses the text; throws CiConfigError with a message fit for `yaml_errors`. */
export function loadCiYaml(text: string): Record<string, unknown> {
  if (Buffer.byteLength(text, 'utf8') > MAX_CI_CONFIG_BYTES) {
    throw new CiConfigError(`The CI configuration is larger than ${MAX_CI_CONFIG_BYTES} bytes`);
  }
  const doc = parseDocument(text, { merge: true, schema: 'core', uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) throw new CiConfigError(firstLine(doc.errors[0].message));
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    throw new CiConfigError(firstLine((e as Error).message));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new CiConfigError('Invalid configuration format');
  }
  return data as Record<string, unknown>;
}

function firstLine(message: string): string {
  const end = message.indexOf('\n');
  return end < 0 ? message : message.slice(0, end);
}
