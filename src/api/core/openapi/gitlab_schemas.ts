// GitLab 10.8's own response schemas (the JSON Schema files its API tests validated against,
// kept in src/api/openapi/gitlab-10.8-schemas, or WHARF_SCHEMAS) converted into OpenAPI 3.1
// components, so the document describes the bodies clients were written against. The files
// are draft-04 with a few bits GitLab's Ruby validator tolerated; converting:
//   - "type": "date" (used for timestamps, some null) becomes string or null, "uri" a string
//     of format uri, "date-time" a string of format date-time; a stray space or the "integet"
//     typo is fixed;
//   - a relative "$ref" to another file becomes a reference to that file's component; one to a
//     file GitLab never committed (full.json, label.json, ...) becomes an open schema;
//   - `"properties": {"$ref": "x.json"}` (GitLab's way of saying "this object is x.json")
//     becomes the reference itself;
//   - draft-04 markers (`$schema`, `id`, empty `definitions`) go, duplicate `required`
//     entries are merged and a pattern JavaScript cannot compile is dropped.
// Nothing is copied into Wharf: the files are read where they are, once per document.
import fs from 'node:fs';
import path from 'node:path';

export type JsonSchema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';
const STANDARD_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);

/** One GitLab type name as JSON Schema types (and a format where GitLab's name implied one). */
function standardType(name: string): { types: string[]; format?: string } {
  const t = name.trim();
  if (STANDARD_TYPES.has(t)) return { types: [t] };
  if (t === 'integet') return { types: ['integer'] };
  if (t === 'date') return { types: ['string', 'null'] };
  if (t === 'uri') return { types: ['string'], format: 'uri' };
  if (t === 'date-time') return { types: ['string'], format: 'date-time' };
  return { types: ['string'] };
}

function convertType(value: unknown): JsonSchema {
  const names = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  if (!names.length) return {};
  const parts = names.map(standardType);
  const types = [...new Set(parts.flatMap((p) => p.types))];
  const format = parts.length === 1 ? parts[0].format : undefined;
  return { type: types.length === 1 ? types[0] : types, ...(format ? { format } : {}) };
}

/** Whether a schema's `pattern` (written for Ruby) compiles as a JavaScript regex; those that do not are dropped. */
export function compiles(pattern: unknown): boolean {
  try {
    new RegExp(String(pattern), 'u');
    return true;
  } catch {
    return false;
  }
}

/** The component name of a file nobody asked for by name: `gitlab.public_api.v4.commit.basic`. */
function pathName(rel: string): string {
  return `gitlab.${rel
    .replace(/\.json$/, '')
    .split('/')
    .join('.')}`.replace(/[^A-Za-z0-9._-]/g, '_');
}

export class GitLabSchemas {
  /** The converted files, by component name. */
  readonly components: Record<string, JsonSchema> = {};
  private readonly named = new Map<string, string>();

  /**
   * @param root the folder of GitLab's schemas, or undefined when it is not available
   * @param preferred component names for some files (`public_api/v4/branch.json` → `Branch`)
   */
  constructor(
    readonly root: string | undefined,
    private readonly preferred: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** The parsed file at `rel` (relative to root), or undefined when it is missing or unreadable. */
  private read(rel: string): JsonSchema | undefined {
    if (!this.root) return undefined;
    const file = path.resolve(this.root, rel);
    const inside = path.relative(this.root, file);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as JsonSchema) : undefined;
    } catch {
      return undefined;
    }
  }

  /** A `$ref` to the component of file `rel`, converting it the first time; undefined when missing. */
  ref(rel: string): JsonSchema | undefined {
    const normal = path.posix.normalize(rel);
    let name = this.named.get(normal);
    if (!name) {
      const file = this.read(normal);
      if (!file) return undefined;
      name = this.preferred.get(normal) ?? pathName(normal);
      this.named.set(normal, name);
      this.components[name] = {}; // placeholder: a file may refer to itself
      this.components[name] = this.convert(file, normal);
    }
    return { $ref: `${REF_PREFIX}${name}` };
  }

  /** The converted `items` of the array file `rel` (e.g. one milestone of milestones.json). */
  items(rel: string): JsonSchema | undefined {
    const file = this.read(path.posix.normalize(rel));
    const items = file?.items;
    return items && typeof items === 'object' && !Array.isArray(items) ? this.convert(items as JsonSchema, rel) : undefined;
  }

  private refFrom(base: string, target: unknown): JsonSchema {
    const rel = path.posix.join(path.posix.dirname(base), String(target));
    return this.ref(rel) ?? { description: `GitLab's ${rel} (not among its committed schemas): any value.` };
  }

  /** Converts one schema node of file `base` (keywords only: a property named "type" is a property). */
  private convert(node: JsonSchema, base: string): JsonSchema {
    if (typeof node.$ref === 'string') return this.refFrom(base, node.$ref);
    const props = node.properties as JsonSchema | undefined;
    if (props && typeof props === 'object' && typeof props.$ref === 'string') {
      // "this object is that file"; when the file was never committed, keep type and required.
      const whole = this.ref(path.posix.join(path.posix.dirname(base), props.$ref));
      if (whole) return whole;
      const { properties: _missing, ...rest } = node;
      return this.convert(rest, base);
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      switch (key) {
        case '$schema':
        case '$id':
        case 'id':
        case 'definitions':
          break;
        case 'type':
          Object.assign(out, convertType(value));
          break;
        case 'properties':
        case 'patternProperties':
          out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, this.convertAny(v, base)]));
          break;
        case 'items':
          if (Array.isArray(value)) out.prefixItems = value.map((v) => this.convertAny(v, base));
          else out.items = this.convertAny(value, base);
          break;
        case 'additionalProperties':
        case 'not':
          out[key] = this.convertAny(value, base);
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          out[key] = (value as unknown[]).map((v) => this.convertAny(v, base));
          break;
        case 'required':
          if (Array.isArray(value)) out.required = [...new Set(value)];
          break;
        case 'pattern':
          if (compiles(value)) out.pattern = value;
          break;
        default:
          out[key] = value;
      }
    }
    return out;
  }

  private convertAny(value: unknown, base: string): unknown {
    return value && typeof value === 'object' && !Array.isArray(value) ? this.convert(value as JsonSchema, base) : value;
  }
}
