// Declarative parameter schemas. Values arrive from the query string, a form or a JSON body
// (merged, body last); each declared parameter is coerced and checked, and failures answer
// 400 {"error": "..."} in Grape's words, several joined by ", " in declaration order.
//
// JSON null: Grape 1.0's `requires` only checks that the key is there and its coercion lets
// nil through, so GitLab hands nil to the endpoint, whose model then refuses it as blank, or
// writes it into a NOT NULL column and answers 500 (a hook's `push_events: null`);
// `allow_blank: false` refuses nil itself with "is empty". Here, in one place for every route:
// a null for a required or not-blank parameter is refused at once in those words ("title is
// empty"), so a handler's required value is never null; a null for a parameter with a default
// takes the default; a null for any other optional parameter is as if it were not given
// (Grape's "missing": nothing is written, for creates and updates alike, and the rules
// between parameters do not count it), unless the parameter is declared `nullable()`: one
// whose null GitLab gives a meaning (it clears a nullable value, a description, a due date,
// an assignee; or the model refuses it as blank), which the handler then receives as null.
import fs from 'node:fs';
import type Koa from 'koa';
import type { IParseOptions } from 'qs';
import { paramError } from './errors.js';
import { grapeDate, grapeDateTime, grapeDateTimeLocalDate, railsDate, railsTime } from './date_casts.js';

/** Bracketed keys (`iids[]=1`, `custom_attributes[k]=v`) as Rack reads them, for queries and form bodies; no dotted keys. */
export const RACK_QUERY: IParseOptions = { depth: 5, arrayLimit: 1000, parameterLimit: 10000, allowDots: false };

type Reason = 'is invalid' | 'is missing' | 'is empty' | 'does not have a valid value';

class Invalid extends Error {
  constructor(readonly reason: Reason = 'is invalid') {
    super(reason);
  }
}

type Coerce<T> = (raw: unknown) => T;

/** A parameter's value as the OpenAPI document describes it (a JSON Schema object). */
export type ValueSchema = Record<string, unknown>;

/** The JSON Schema of each coercion the `p.*` constructors use: a parameter keeps its coercion
 * through required()/values()/default()/notBlank(), so its type is found from it. */
const valueSchemas = new WeakMap<Coerce<unknown>, ValueSchema>();

function typed<T>(param: Param<T>, schema: ValueSchema): Param<T> {
  valueSchemas.set(param.coerce, schema);
  return param;
}

export class Param<T, Req extends boolean = false> {
  constructor(
    readonly coerce: Coerce<T>,
    readonly isRequired: Req = false as Req,
    readonly allowed: readonly T[] | undefined = undefined,
    readonly fallback: T | undefined = undefined,
    readonly blankAllowed = true,
    readonly nullAllowed = false,
  ) {}

  /** The value's JSON Schema (type, format, items) for the OpenAPI document; undefined for a
   * hand-written coercion, which says nothing of its type. */
  get valueSchema(): ValueSchema | undefined {
    return valueSchemas.get(this.coerce);
  }

  required(): Param<T, true> {
    return new Param<T, true>(this.coerce, true, this.allowed, this.fallback, this.blankAllowed, this.nullAllowed);
  }

  /** The value must be one of these (after coercion). */
  values(allowed: readonly T[]): Param<T, Req> {
    return new Param<T, Req>(this.coerce, this.isRequired, allowed, this.fallback, this.blankAllowed, this.nullAllowed);
  }

  /** Used when the parameter is absent; the result is then never undefined. */
  default(value: T): Param<T, true> {
    return new Param<T, true>(this.coerce, false as unknown as true, this.allowed, value, this.blankAllowed, this.nullAllowed);
  }

  /** An empty string (or empty array), or null, is refused with "is empty" (Grape's allow_blank: false). */
  notBlank(): Param<T, Req> {
    return new Param<T, Req>(this.coerce, this.isRequired, this.allowed, this.fallback, false, this.nullAllowed);
  }

  /**
   * A JSON null reaches the handler as null (it clears the value, or the model refuses it),
   * instead of counting as not given; for an optional parameter without a default only.
   */
  nullable(): Param<T | null, Req> {
    return new Param<T | null, Req>(this.coerce, this.isRequired, this.allowed as readonly (T | null)[] | undefined, this.fallback, this.blankAllowed, true);
  }
}

function scalar(raw: unknown): unknown {
  // A repeated query key (a=1&a=2) arrives as an array: the last one wins, as in Rack.
  return Array.isArray(raw) ? raw[raw.length - 1] : raw;
}

const TRUE = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE = new Set(['false', '0', 'f', 'no', 'n', 'off']);

export const coerceBoolean: Coerce<boolean> = (raw) => {
  const v = scalar(raw);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE.has(s)) return true;
    if (FALSE.has(s)) return false;
  }
  throw new Invalid();
};

/** The range of the database's integer columns (PostgreSQL `integer`): ids, iids, levels, settings. */
const INTEGER_MIN = -2147483648;
const INTEGER_MAX = 2147483647;

/** Any integer of up to 15 digits, for a value whose range the model checks itself (projects_limit). */
const coerceWideInteger: Coerce<number> = (raw) => {
  const v = scalar(raw);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\s*[-+]?\d{1,15}\s*$/.test(v)) return Number(v);
  throw new Invalid();
};

/**
 * An integer that fits the database's integer columns; a larger one is "is invalid" on either
 * engine (SQLite would store or look it up, PostgreSQL refuses it with an error).
 */
export const coerceInteger: Coerce<number> = (raw) => {
  const n = coerceWideInteger(raw);
  if (n < INTEGER_MIN || n > INTEGER_MAX) throw new Invalid();
  return n;
};

/** A finite decimal number (Grape's Float and BigDecimal), from a number or its text. */
const coerceFloat: Coerce<number> = (raw) => {
  const v = scalar(raw);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    if (Number.isFinite(n)) return n;
  }
  throw new Invalid();
};

/**
 * Any string, NUL characters included: for the values that never reach a text column as they
 * are, file contents (they go to git) and searches (a NUL matches nothing, finders/fuzzy.ts).
 */
export const coerceAnyString: Coerce<string> = (raw) => {
  const v = scalar(raw);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Invalid();
};

/**
 * A string without NUL characters ("is invalid" otherwise): PostgreSQL text cannot hold one
 * and git refuses one in names and messages, so both engines answer the same 400.
 */
export const coerceString: Coerce<string> = (raw) => {
  const s = coerceAnyString(raw);
  if (s.includes('\u0000')) throw new Invalid();
  return s;
};

/**
 * Grape's `type: Date`: Date.parse of the text (date_casts.ts reads it as Ruby does: "2020-01-01",
 * "Jan 1 2020", "2020-01-01T10:00Z", "20200101", ...), as `YYYY-MM-DD`; what Ruby cannot read
 * "is invalid".
 */
const coerceDate: Coerce<string> = (raw) => {
  const date = grapeDate(coerceString(raw));
  if (date === null) throw new Invalid();
  return date;
};

/** Grape's `type: DateTime`: DateTime.parse of the text, as the API's ISO 8601 UTC instant. */
const coerceDateTime: Coerce<string> = (raw) => {
  const time = grapeDateTime(coerceString(raw));
  if (time === null) throw new Invalid();
  return time;
};

/** A `type: DateTime` parameter stored in a date column: the date as written in its own offset. */
const coerceDateTimeToDate: Coerce<string> = (raw) => {
  const date = grapeDateTimeLocalDate(coerceString(raw));
  if (date === null) throw new Invalid();
  return date;
};

/**
 * A `type: String` parameter that GitLab hands to a date column (issue due_date, milestone
 * due_date and start_date): Rails 4.2 casts it, and what it cannot read becomes nil, silently.
 * Never refused; null clears the date.
 */
const coerceStringToDate: Coerce<string | null> = (raw) => (raw === null ? null : railsDate(coerceString(raw)));

/** A `type: String` parameter GitLab hands to a datetime column (a note's created_at): null when unreadable. */
const coerceStringToTime: Coerce<string | null> = (raw) => (raw === null ? null : railsTime(coerceString(raw)));

/** A file of a multipart body as http/body.ts leaves it on disk (its UploadedFile). */
export interface FileParam {
  filename: string;
  mimetype: string;
  path: string;
  size: number;
}

/** Grape's `type: File`: a file part of a multipart body; any other value "is invalid". */
const coerceFile: Coerce<FileParam> = (raw) => {
  const f = raw as Partial<FileParam> | null;
  if (!f || typeof f !== 'object' || typeof f.path !== 'string' || typeof f.filename !== 'string' || typeof f.size !== 'number') throw new Invalid();
  return f as FileParam;
};

/** A PEM (certificate or key) is a few KB; a file part above this is not one. */
const MAX_TEXT_FILE_BYTES = 256 * 1024;

/**
 * Grape's `types: [File, String]` for text (a Pages certificate or key): the text itself, or
 * the content of a small file part of a multipart body (`curl -F certificate=@cert.pem`).
 */
const coerceTextOrFile: Coerce<string> = (raw) => {
  if (raw !== null && typeof raw === 'object') {
    const f = coerceFile(raw);
    if (f.size > MAX_TEXT_FILE_BYTES) throw new Invalid();
    return coerceString(fs.readFileSync(f.path, 'utf8'));
  }
  return coerceString(raw);
};

valueSchemas.set(coerceBoolean, { type: 'boolean' });
valueSchemas.set(coerceFile, { type: 'string', format: 'binary' });
valueSchemas.set(coerceTextOrFile, { type: 'string' });
valueSchemas.set(coerceInteger, { type: 'integer' });
valueSchemas.set(coerceString, { type: 'string' });
valueSchemas.set(coerceAnyString, { type: 'string' });
valueSchemas.set(coerceWideInteger, { type: 'integer' });
valueSchemas.set(coerceDate, { type: 'string', format: 'date' });
valueSchemas.set(coerceDateTime, { type: 'string', format: 'date-time' });
valueSchemas.set(coerceDateTimeToDate, { type: 'string', format: 'date-time' });
valueSchemas.set(coerceStringToDate, { type: ['string', 'null'], format: 'date' });
valueSchemas.set(coerceStringToTime, { type: ['string', 'null'], format: 'date-time' });

export const p = {
  string: () => new Param<string>(coerceString),
  /** A string that may hold NUL characters (coerceAnyString): file contents, searches. */
  anyString: () => new Param<string>(coerceAnyString),
  /** An integer beyond the columns' range too, for a model that answers it (coerceWideInteger). */
  wideInteger: () => new Param<number>(coerceWideInteger),
  integer: () => new Param<number>(coerceInteger),
  float: () => new Param<number>(coerceFloat),
  boolean: () => new Param<boolean>(coerceBoolean),
  date: () => new Param<string>(coerceDate),
  datetime: () => new Param<string>(coerceDateTime),
  file: () => new Param<FileParam>(coerceFile),
  textOrFile: () => new Param<string>(coerceTextOrFile),
  /** A DateTime kept as a date (a member's expires_at). */
  datetimeAsDate: () => new Param<string>(coerceDateTimeToDate),
  /** A string Rails casts to a date column: null when unreadable (see coerceStringToDate); null clears it. */
  castDate: () => new Param<string | null>(coerceStringToDate).nullable(),
  /** A string Rails casts to a datetime column: null when unreadable; null clears it. */
  castTime: () => new Param<string | null>(coerceStringToTime).nullable(),
  /** `name[]=a&name[]=b`, a JSON array, or one bare value taken as a one-element array. */
  array<T>(item: Param<T, boolean>): Param<T[]> {
    const param = new Param<T[]>((raw) => {
      const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
      return list.map((v) => item.coerce(v));
    });
    return typed(param, { type: 'array', items: item.valueSchema ?? {} });
  },
  /** Integers given as an array or as one comma-separated string ("1,2,3"). */
  integerList(): Param<number[]> {
    const param = new Param<number[]>((raw) => {
      const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').filter((s) => s !== '') : [raw];
      return list.map((v) => coerceInteger(v));
    });
    return typed(param, { type: 'array', items: { type: 'integer' }, description: 'An array, or integers separated by commas ("1,2,3").' });
  },
  /** `name[key]=value` pairs or a JSON object, values kept as strings. */
  hash(): Param<Record<string, string>> {
    const param = new Param<Record<string, string>>((raw) => {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Invalid();
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[k] = coerceString(v);
      return out;
    });
    return typed(param, { type: 'object', additionalProperties: { type: 'string' } });
  },
};

export type Schema = Record<string, Param<any, boolean>>;

export type Parsed<S extends Schema> = {
  [K in keyof S]: S[K] extends Param<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

export interface Rules {
  /** At least one of these must be present. */
  atLeastOneOf?: string[];
  /**
   * Parameters of later GitLab versions that satisfy `atLeastOneOf` too without being named in
   * its message, which stays the one of 10.8's list.
   */
  atLeastOneOfLater?: string[];
  /** No two of these may be present together. */
  mutuallyExclusive?: string[][];
  /** Either all of these are present or none. */
  allOrNoneOf?: string[];
  /**
   * Other names a parameter is also taken by, when it is absent under its own (the name later
   * GitLab versions and their clients use): `{ code: 'content' }`.
   */
  aliases?: Record<string, string>;
  /**
   * Grape's `given flag: ->(val) { val } do requires ... end`: when the boolean parameter
   * `flag` is given as true, each listed parameter is required ("<name> is missing").
   */
  given?: Record<string, string[]>;
  /**
   * Rules Grape declares between parameters: `after[name]` is checked right after parameter
   * `name`, so that its message comes in declaration order among the others.
   */
  after?: Record<string, Rules>;
}

function isBlank(v: unknown): boolean {
  return v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && v.trim() === '');
}

/** Every parameter the request carries: query string first, then the body, then its files (the first of each name). */
export function rawParams(ctx: Koa.Context): Record<string, unknown> {
  const body = (ctx.request as unknown as { body?: unknown }).body;
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const files = (ctx.request as unknown as { files?: Record<string, FileParam[]> }).files ?? {};
  const fromFiles: Record<string, FileParam> = {};
  for (const [name, list] of Object.entries(files)) if (list.length) fromFiles[name] = list[0];
  return { ...(ctx.state.query as Record<string, unknown>), ...fromBody, ...fromFiles };
}

export function parseValues<S extends Schema>(given: Record<string, unknown>, schema: S, rules: Rules = {}): Parsed<S> {
  const raw = withoutNulls(withAliases(given, rules.aliases), schema);
  const out: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [name, param] of Object.entries(schema)) {
    const error = parseOne(raw, name, param, out);
    if (error) errors.push(error);
    const after = rules.after?.[name];
    if (after) errors.push(...ruleErrors(raw, after));
  }
  errors.push(...ruleErrors(raw, rules));
  if (errors.length) throw paramError(errors.join(', '));
  return out as Parsed<S>;
}

function withAliases(raw: Record<string, unknown>, aliases: Record<string, string> | undefined): Record<string, unknown> {
  if (!aliases) return raw;
  const out = { ...raw };
  for (const [name, alias] of Object.entries(aliases)) if (out[name] === undefined && raw[alias] !== undefined) out[name] = raw[alias];
  return out;
}

/**
 * The values with each null that counts as not given left out: that of a parameter with a
 * default (which it then takes), or of an optional one that is neither nullable nor refused
 * blank. The rules between parameters then do not count it either.
 */
function withoutNulls(raw: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [name, param] of Object.entries(schema)) {
    if (raw[name] !== null) continue;
    const absent = param.fallback !== undefined || (!param.isRequired && param.blankAllowed && !param.nullAllowed);
    if (!absent) continue;
    out ??= { ...raw };
    delete out[name];
  }
  return out ?? raw;
}

/** Sets `out[name]` from `raw`, or answers the parameter's error message. */
function parseOne(raw: Record<string, unknown>, name: string, param: Param<unknown, boolean>, out: Record<string, unknown>): string | null {
  const value = raw[name];
  if (value === undefined) {
    if (param.isRequired && param.fallback === undefined) return `${name} is missing`;
    out[name] = param.fallback;
    return null;
  }
  if ((value === null && param.isRequired) || (!param.blankAllowed && isBlank(value))) return `${name} is empty`;
  try {
    const coerced = value === null ? null : param.coerce(value);
    if (param.allowed && coerced !== null && !valueAllowed(coerced, param.allowed)) {
      throw new Invalid('does not have a valid value');
    }
    out[name] = coerced;
    return null;
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    return `${name} ${err.reason}`;
  }
}

function ruleErrors(raw: Record<string, unknown>, rules: Rules): string[] {
  const errors: string[] = [];
  const present = (n: string) => raw[n] !== undefined;
  for (const group of rules.mutuallyExclusive ?? []) {
    const given = group.filter(present);
    if (given.length > 1) errors.push(`${given.join(', ')} are mutually exclusive`);
  }
  if (rules.atLeastOneOf && !rules.atLeastOneOf.some(present) && !(rules.atLeastOneOfLater ?? []).some(present)) {
    errors.push(`${rules.atLeastOneOf.join(', ')} are missing, at least one parameter must be provided`);
  }
  for (const [flag, required] of Object.entries(rules.given ?? {})) {
    if (!givenTrue(raw[flag])) continue;
    for (const name of required) if (!present(name)) errors.push(`${name} is missing`);
  }
  const some = rules.allOrNoneOf?.filter(present).length ?? 0;
  if (rules.allOrNoneOf && some > 0 && some < rules.allOrNoneOf.length) {
    errors.push(`${rules.allOrNoneOf.join(', ')} provide all or none of parameters`);
  }
  return errors;
}

/** Whether a flag parameter was given as true (an invalid value is not true). */
function givenTrue(raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  try {
    return coerceBoolean(raw);
  } catch {
    return false;
  }
}

function valueAllowed(value: unknown, allowed: readonly unknown[]): boolean {
  return Array.isArray(value) ? value.every((v) => allowed.includes(v)) : allowed.includes(value);
}

/**
 * A JSON null for an optional string that a GitLab model validates as present (a name, a
 * path, an e-mail): nil is blank to the model, so null is treated as "" ("can't be blank").
 */
export function blankIfNull(value: string | null | undefined): string | undefined {
  return value === null ? '' : value;
}

/** Only the keys whose value is not undefined: the attributes a request actually sets. */
export function given<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
