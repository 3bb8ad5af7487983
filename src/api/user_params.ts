// Parameter schemas of the users API, and Grape's declaration-order error messages for the
// rules (at_least_one_of, all_or_none_of) that sit between parameters.
import type Koa from 'koa';
import { ApiError, paramError } from '../http/errors.js';
import { p, parseValues, rawParams, type Parsed, type Schema } from '../http/params.js';
import { USER_ORDERS } from '../finders/users.js';

type Check = (raw: Record<string, unknown>) => string | null;

export function atLeastOneOf(...names: string[]): Check {
  return (raw) =>
    names.some((n) => raw[n] !== undefined) ? null : `${names.join(', ')} are missing, at least one parameter must be provided`;
}

export function allOrNoneOf(...names: string[]): Check {
  return (raw) => {
    const present = names.filter((n) => raw[n] !== undefined).length;
    return present === 0 || present === names.length ? null : `${names.join(', ')} provide all or none of parameters`;
  };
}

/**
 * Like parse(), but runs `checks[name]` right after parameter `name`, so that every message
 * comes in the order GitLab declares it. `route` holds path parameters (`user_id`, ...).
 */
export function parseOrdered<S extends Schema>(
  ctx: Koa.Context,
  schema: S,
  checks: Partial<Record<keyof S & string, Check>> = {},
  route: Record<string, unknown> = {},
): Parsed<S> {
  const raw = { ...rawParams(ctx), ...route };
  const out: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [name, param] of Object.entries(schema)) {
    try {
      Object.assign(out, parseValues(raw, { [name]: param }));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      errors.push((err.body as { error: string }).error);
    }
    const message = checks[name as keyof S & string]?.(raw);
    if (message) errors.push(message);
  }
  if (errors.length) throw paramError([...new Set(errors)].join(', '));
  return out as Parsed<S>;
}

/** The profile attributes POST and PUT /users share (GitLab's `optional_attributes`). */
export const profileSchema = {
  skype: p.string(),
  linkedin: p.string(),
  twitter: p.string(),
  website_url: p.string(),
  organization: p.string(),
  projects_limit: p.integer(),
  // Accepted for compatibility; Wharf keeps no external identities.
  extern_uid: p.string(),
  provider: p.string(),
  bio: p.string(),
  location: p.string(),
  admin: p.boolean(),
  can_create_group: p.boolean(),
  external: p.boolean(),
};

export const customAttributesSchema = {
  with_custom_attributes: p.boolean().default(false),
  custom_attributes: p.hash(),
};

export const listSchema = {
  username: p.string(),
  extern_uid: p.string(),
  provider: p.string(),
  search: p.string(),
  active: p.boolean().default(false),
  external: p.boolean().default(false),
  blocked: p.boolean().default(false),
  created_after: p.datetime(),
  created_before: p.datetime(),
  order_by: p.string().values(USER_ORDERS).default('id'),
  sort: p.string().values(['asc', 'desc']).default('desc'),
  // Checked again by paginate(); declared here so that its message comes in GitLab's order.
  page: p.integer(),
  per_page: p.integer(),
  ...customAttributesSchema,
};

export const createSchema = {
  email: p.string().required(),
  password: p.string(),
  reset_password: p.boolean(),
  skip_confirmation: p.boolean(),
  name: p.string().required(),
  username: p.string().required(),
  ...profileSchema,
};

export const updateSchema = {
  email: p.string(),
  password: p.string(),
  skip_reconfirmation: p.boolean(),
  name: p.string(),
  username: p.string(),
  ...profileSchema,
};
