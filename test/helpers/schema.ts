// Validates responses against GitLab 10.8's own JSON schemas (src/api/core/openapi/gitlab-10.8-schemas,
// kept in the repository with their license).
// GitLab's files use a few non-standard bits that its Ruby validator tolerated: "type": "date",
// "type": "uri", a stray space in a type name, a "$ref" to a file that was never committed, and a Ruby
// pattern JavaScript cannot compile. They are
// normalised here so that ajv checks everything else strictly.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'chai';
import { compiles } from '../../src/api/core/openapi/gitlab_schemas.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

export function schemaRoot(): string {
  const root = path.join(repoRoot, 'src/api/core/openapi/gitlab-10.8-schemas');
  if (!fs.existsSync(root)) throw new Error(`GitLab schemas not found in ${root}`);
  return root;
}

const STANDARD_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);

/** GitLab's "date" and "uri" types are strings; trims stray spaces in type names. */
function normalise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalise);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === '$schema') continue; // draft-04 markers: ajv checks them all by its own draft
    if (k === 'type') {
      // GitLab's validator let anything, null included, pass its unknown "date" type
      // (e.g. a never-signed-in user's last_sign_in_at).
      const fix = (t: unknown): unknown[] => (typeof t !== 'string' ? [t] : STANDARD_TYPES.has(t.trim()) ? [t.trim()] : t.trim() === 'date' ? ['string', 'null'] : ['string']);
      const types = [...new Set((Array.isArray(v) ? v : [v]).flatMap(fix))];
      out.type = types.length === 1 ? types[0] : types;
    } else if (k === 'pattern' && !compiles(v)) {
      continue; // a Ruby pattern JavaScript cannot compile (board.json's colour): dropped, as openapi/gitlab_schemas.ts does
    } else if (k === 'properties' && v && typeof v === 'object' && '$ref' in (v as object)) {
      out.properties = {}; // the referenced full.json does not exist in GitLab's tree
    } else {
      out[k] = normalise(v);
    }
  }
  return out;
}

// GitLab's files are not all valid draft-07 (duplicate "required" entries): check data, not schemas.
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
const compiled = new Map<string, ValidateFunction>();
let registered = false;

function load(rel: string): ValidateFunction {
  const cached = compiled.get(rel);
  if (cached) return cached;
  const root = schemaRoot();
  // Register every file once, keyed by its path, so relative $refs resolve.
  if (!registered) {
    registered = true;
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.json')) {
          const id = `file:///${path.relative(root, p).split(path.sep).join('/')}`;
          const schema = normalise(JSON.parse(fs.readFileSync(p, 'utf8'))) as Record<string, unknown>;
          ajv.addSchema({ ...schema, $id: id });
        }
      }
    };
    walk(root);
  }
  const fn = ajv.getSchema(`file:///${rel}`);
  if (!fn) throw new Error(`no schema ${rel}`);
  compiled.set(rel, fn);
  return fn;
}

/** Asserts that `body` matches GitLab's schema at `rel` (e.g. "public_api/v4/projects.json"). */
export function expectSchema(body: unknown, rel: string): void {
  const validate = load(rel);
  const ok = validate(body);
  expect(ok, `${rel}: ${ajv.errorsText(validate.errors, { separator: '\n' })}`).to.equal(true);
}
