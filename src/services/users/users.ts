// Creating users (the user row and its personal namespace, in one transaction), updating them
// (a new username renames the namespace and moves its repositories), blocking them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import type { Deps } from '../../deps.js';
import { isUniqueViolation, type Conn, type Tx } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import { now } from '../../store/time.js';
import { Conflict, Invalid } from '../../store/domain_errors.js';
import { createNamespace } from '../groups/namespaces.js';
import { settingsOf } from '../settings/application_settings.js';
import { generateToken } from './tokens.js';
import { normaliseEmail, userErrors, type UserAttributes } from './validation.js';
import { namespaceDir } from '../repository/namespace_dirs.js';
import { checkIdentity, saveIdentity, type IdentityInput } from './identities.js';
import { moveRepositoriesOf, REPOSITORY_EXISTS, type RepositoryMove } from '../repository/moves.js';
import { announce } from '../notify.js';
import { findUserById } from '../../finders/users.js';
import { secondaryEmailTaken } from '../../finders/emails.js';
import { keepPreviousPrimaryEmail } from '../emails/emails.js';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

/** `scrypt$<salt>$<hash>`, both base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, digest: string | null): Promise<boolean> {
  if (!digest) return false;
  const [scheme, salt, hash] = digest.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return crypto.timingSafeEqual(actual, expected);
}

export interface NewUser {
  username: string;
  email: string;
  name: string;
  /** Already hashed (hashPassword), outside the transaction: scrypt is slow on purpose. */
  passwordDigest?: string | null;
  admin?: boolean;
  /** When the account was confirmed; defaults to now, null for an unconfirmed account. */
  confirmedAt?: string | null;
  /** Any other column of `users` (bio, projects_limit, external, ...). */
  extra?: Partial<UserRow>;
}

export async function insertUser(tx: Tx, u: NewUser): Promise<UserRow> {
  const stamp = now();
  const id = await insertReturningId(tx, 'users', {
    ...u.extra,
    username: u.username,
    email: u.email,
    name: u.name,
    password_digest: u.passwordDigest ?? null,
    admin: u.admin ?? false,
    confirmed_at: u.confirmedAt === undefined ? stamp : u.confirmedAt,
    created_at: stamp,
    updated_at: stamp,
  });
  await createNamespace(tx, { kind: 'user', name: u.username, path: u.username, ownerId: id, visibilityLevel: 20 });
  return (await findUserById(tx, id))!;
}

interface UserFlags {
  admin?: boolean;
  can_create_group?: boolean;
  external?: boolean;
}

export interface CreateUserInput extends UserAttributes, UserFlags {
  email: string;
  username: string;
  name: string;
  /** Set a random password instead (GitLab then mails a reset link; Wharf sends no mail). */
  resetPassword?: boolean;
  /** Mark the account confirmed; otherwise `confirmed_at` stays null. */
  skipConfirmation?: boolean;
  /** An external identity (`provider` and `extern_uid`). */
  identity?: IdentityInput;
}

export type UpdateUserInput = Partial<UserAttributes> & UserFlags & { identity?: IdentityInput };

const PROFILE_FIELDS = ['skype', 'linkedin', 'twitter', 'website_url', 'organization', 'bio', 'location'] as const;

/**
 * The 409 GitLab answers when another user has this e-mail or exactly this username (its
 * check is case-sensitive; a username differing only in case fails validation instead).
 */
async function conflictWithOtherUser(db: Conn, exceptId: number | null, email?: string, username?: string): Promise<Conflict | null> {
  const other = (q: Knex.QueryBuilder) => (exceptId === null ? q : q.whereNot('id', exceptId));
  if (email !== undefined && (await other(db('users').whereRaw('lower(email) = ?', [email.toLowerCase()])).first('id'))) {
    return new Conflict('Email has already been taken');
  }
  if (username !== undefined && (await other(db('users').whereRaw('lower(username) = ?', [username.toLowerCase()]).where('username', username)).first('id'))) {
    return new Conflict('Username has already been taken');
  }
  return null;
}

/** Whether a namespace other than the user's own has this path (any case). */
async function pathTakenByOther(db: Conn, path: string, userId: number | null): Promise<boolean> {
  const q = db('namespaces').whereRaw('lower(full_path) = ?', [path.toLowerCase()]);
  if (userId !== null) q.whereNot((w) => w.where({ kind: 'user', owner_id: userId }));
  return !!(await q.first('id'));
}

/** Conflicts first (409), then the model's validation errors (400), as GitLab orders them. */
async function check(db: Conn, userId: number | null, attrs: UserAttributes, creating: boolean): Promise<void> {
  const clash = await conflictWithOtherUser(db, userId, attrs.email, attrs.username);
  if (clash) throw clash;
  const errors = userErrors(attrs, creating);
  // The User model's unique_email: another user's secondary e-mail is taken too.
  if (attrs.email !== undefined && !errors.email && (await secondaryEmailTaken(db, normaliseEmail(attrs.email), userId))) {
    errors.email = ['has already been taken'];
  }
  if (attrs.username !== undefined && !errors.username && (await pathTakenByOther(db, attrs.username, userId))) {
    errors.username = ['has already been taken'];
  }
  if (Object.keys(errors).length) throw new Invalid(errors);
}

/** A constraint the checks did not see (a concurrent writer) becomes the same answer. */
async function explainUniqueViolation(db: Conn, err: unknown, userId: number | null, attrs: UserAttributes, creating: boolean): Promise<never> {
  if (!isUniqueViolation(err)) throw err;
  await check(db, userId, attrs, creating);
  throw new Conflict();
}

function profileColumns(input: Partial<UserAttributes>): Partial<UserRow> {
  const out: Record<string, unknown> = {};
  for (const f of PROFILE_FIELDS) if (input[f] !== undefined) out[f] = input[f];
  return out as Partial<UserRow>;
}

/** POST /users: validates, then inserts the user and its namespace. */
export async function createUser(deps: Deps, input: CreateUserInput): Promise<UserRow> {
  const password = input.password ?? (input.resetPassword ? generateToken() : undefined);
  const attrs: UserAttributes = { ...input, email: normaliseEmail(input.email), password };
  // Hashing is slow on purpose: never inside the write transaction.
  const digest = password !== undefined && !userErrors({ password }, true).password ? await hashPassword(password) : null;
  // New users take the instance's defaults (User's default_value_for :external and
  // set_projects_limit): `user_default_external`, `default_projects_limit`.
  const settings = await settingsOf(deps);
  const external = input.external ?? settings.user_default_external;
  try {
    return await deps.db.transaction(async (tx) => {
      await check(tx, null, attrs, true);
      if (input.identity) await checkIdentity(tx, null, input.identity);
      const created = await insertUser(tx, {
        username: input.username,
        email: attrs.email!,
        name: input.name,
        passwordDigest: digest,
        admin: !!input.admin,
        confirmedAt: input.skipConfirmation ? now() : null,
        extra: {
          ...profileColumns(input),
          external,
          // External users can neither create groups nor personal projects.
          can_create_group: external ? false : (input.can_create_group ?? true),
          projects_limit: external ? 0 : (input.projects_limit ?? settings.default_projects_limit),
        },
      });
      if (input.identity) await saveIdentity(tx, created.id, input.identity);
      await announce(tx, { name: 'userCreated', user: created });
      return created;
    });
  } catch (err) {
    return explainUniqueViolation(deps.db, err, null, attrs, true);
  }
}

/** The columns an update changes, with GitLab's external-user rules applied. */
function updateColumns(user: UserRow, input: UpdateUserInput, email: string | undefined, defaultLimit: number): Partial<UserRow> {
  const changes: Partial<UserRow> = { ...profileColumns(input) };
  if (email !== undefined) changes.email = email;
  if (input.name !== undefined) changes.name = input.name;
  if (input.username !== undefined) changes.username = input.username;
  if (input.admin !== undefined) changes.admin = input.admin;
  if (input.can_create_group !== undefined) changes.can_create_group = input.can_create_group;
  if (input.projects_limit !== undefined) changes.projects_limit = input.projects_limit;
  if (input.external !== undefined && input.external !== !!user.external) {
    changes.external = input.external;
    if (input.external) {
      changes.can_create_group = false;
      changes.projects_limit = 0;
    } else {
      // Back to the defaults, unless this same update changes them.
      if (input.can_create_group === undefined || input.can_create_group === !!user.can_create_group) changes.can_create_group = true;
      if (input.projects_limit === undefined || input.projects_limit === user.projects_limit) changes.projects_limit = defaultLimit;
    }
  }
  return changes;
}

/**
 * PUT /users/:id. A new username renames the personal namespace and moves its repositories
 * (each journalled, under its project's repository lock: repository_moves.ts); they move back
 * if the rows cannot be written.
 */
export async function updateUser(deps: Deps, user: UserRow, input: UpdateUserInput): Promise<UserRow> {
  const email = input.email === undefined ? undefined : normaliseEmail(input.email);
  const attrs: UserAttributes = { ...input, email };
  await check(deps.db, user.id, attrs, false);
  if (input.identity) await checkIdentity(deps.db, user.id, input.identity);

  const changes = updateColumns(user, input, email, (await settingsOf(deps)).default_projects_limit);
  if (input.password !== undefined) changes.password_digest = await hashPassword(input.password);
  const renaming = input.username !== undefined && input.username !== user.username;
  const writeRows = () =>
    deps.db.transaction(async (tx) => {
      await check(tx, user.id, attrs, false);
      if (input.identity) await saveIdentity(tx, user.id, input.identity);
      if (email !== undefined) await keepPreviousPrimaryEmail(tx, user, email);
      const stamp = now();
      await tx('users')
        .where({ id: user.id })
        .update({ ...changes, updated_at: stamp });
      if (renaming) {
        const path = input.username!;
        await tx('namespaces').where({ kind: 'user', owner_id: user.id }).update({ name: path, path, full_path: path, full_name: path, updated_at: stamp });
      }
    });
  try {
    if (renaming) await moveRepositoriesOf(deps, () => personalMoves(deps, user, input.username!), writeRows);
    else await writeRows();
  } catch (err) {
    if (err instanceof Invalid && JSON.stringify(err.fields) === JSON.stringify({ base: [REPOSITORY_EXISTS] })) {
      throw new Invalid({ username: ['cannot be changed: a repository folder already exists at that path'] });
    }
    await explainUniqueViolation(deps.db, err, user.id, attrs, false);
  }
  if (renaming) await removeEmptyDir(namespaceDir(deps.repos.root, user.username));
  return (await findUserById(deps.db, user.id))!;
}

/** The repositories of the user's personal namespace, from `<username>/…` to `<to>/…`. */
async function personalMoves(deps: Deps, user: UserRow, to: string): Promise<RepositoryMove[]> {
  const rows: { id: number; path: string; full_path: string }[] = await deps
    .db('projects as p')
    .join('namespaces as n', 'n.id', 'p.namespace_id')
    .where({ 'n.kind': 'user', 'n.owner_id': user.id })
    .select('p.id', 'p.path', 'n.full_path');
  return rows.map((r) => ({ projectId: r.id, from: `${r.full_path}/${r.path}`, to: `${to}/${r.path}` }));
}

async function removeEmptyDir(dir: string): Promise<void> {
  await fs.promises.rmdir(dir).catch(() => undefined); // not empty, or not there: leave it
}

/**
 * Blocks or unblocks; false when the user already was in that state (GitLab's state machine
 * refuses the transition and the API answers `false`).
 */
export async function setUserState(db: Conn, user: UserRow, state: 'active' | 'blocked'): Promise<boolean> {
  const from = state === 'blocked' ? 'active' : 'blocked';
  const changed = await db('users').where({ id: user.id, state: from }).update({ state, updated_at: now() });
  return Number(changed) > 0;
}
