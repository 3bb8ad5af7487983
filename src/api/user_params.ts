// Parameter schemas and rules of the users API (GitLab 10.8 lib/api/users.rb). Grape checks
// `at_least_one_of` and `all_or_none_of` where they are declared, between parameters: the
// rules' `after` keeps their messages in that order.
import { p, type Rules } from '../http/params.js';
import { USER_ORDERS } from '../finders/users.js';

const externIdentity = { allOrNoneOf: ['extern_uid', 'provider'] };

/** The profile attributes POST and PUT /users share (GitLab's `optional_attributes`). */
const profileSchema = {
  skype: p.string(),
  linkedin: p.string(),
  twitter: p.string(),
  website_url: p.string(),
  organization: p.string().nullable(),
  projects_limit: p.wideInteger(), // the model answers a value beyond its range (user_validation.ts)
  // An external identity, kept and shown to admins and the user (services/users/identities.ts).
  extern_uid: p.string(),
  provider: p.string(),
  // Null clears these (nullable columns); a null skype, linkedin, twitter or website_url is as
  // if not given (their columns hold '' at most).
  bio: p.string().nullable(),
  location: p.string().nullable(),
  admin: p.boolean(),
  can_create_group: p.boolean(),
  external: p.boolean(),
  // Stored and served as the user's avatar_url (api/avatar_params.ts).
  avatar: p.file(),
};

export const customAttributesSchema = {
  with_custom_attributes: p.boolean().default(false),
  custom_attributes: p.hash(),
};

export const listSchema = {
  username: p.string(),
  extern_uid: p.string(),
  provider: p.string(),
  search: p.anyString(),
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
  // A null e-mail, password, name or username is the model's "can't be blank" (blankIfNull).
  email: p.string().nullable(),
  password: p.string().nullable(),
  skip_reconfirmation: p.boolean(),
  name: p.string().nullable(),
  username: p.string().nullable(),
  ...profileSchema,
};

/** 10.8 declares all_or_none_of after created_before. */
export const listRules: Rules = { after: { created_before: externIdentity } };

/** at_least_one_of after skip_confirmation; all_or_none_of at the end (optional_attributes). */
export const createRules: Rules = { after: { skip_confirmation: { atLeastOneOf: ['password', 'reset_password'] } }, ...externIdentity };

export const updateRules: Rules = externIdentity;
