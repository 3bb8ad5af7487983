// Users' secondary e-mails (GitLab 10.8 lib/api/users.rb): the signed-in user's own and an
// admin's view of anyone's.
// - `/user/emails`: list, get, add, delete; another user's e-mail is "404 Email Not Found";
// - `/users/:id/emails`: admins only (list, add, delete); `:id` is digits (404 User Not Found
//   for an unknown number), looked up before the parameters are read, as for SSH keys;
// - a new address is validated as the Email model does (services/emails/validation.ts): one
//   that is anyone's primary or secondary e-mail is 400 {"message":{"email":["has already been taken"]}};
// - the answer is `{id, email}`; admins may pass `skip_confirmation` (later GitLab) to add an
//   address already confirmed, otherwise it stays unconfirmed: Wharf sends no mail;
// - deleting honours If-Unmodified-Since (412) and answers 204.
import { route, type Route } from './core/route.js';
import type { Deps } from '../deps.js';
import type { UserRow } from '../store/rows.js';
import type { EmailRow } from '../store/email_rows.js';
import { notFound } from '../http/errors.js';
import { p } from '../http/params.js';
import { paginate } from '../http/pagination.js';
import { checkUnmodifiedSince } from '../http/conditional.js';
import { findUserEmail, userEmailsQuery } from '../finders/emails.js';
import { email } from '../entities/email.js';
import { createEmail, deleteEmail } from '../services/emails/emails.js';

const EMAIL = { schema: 'Email' } as const;
const emailId = { email_id: p.integer().required() };

async function ownEmail(deps: Deps, user: UserRow, id: number): Promise<EmailRow> {
  const row = await findUserEmail(deps.db, user.id, id);
  if (!row) throw notFound('Email');
  return row;
}

async function emailsPage(ctx: Parameters<typeof paginate>[0], deps: Deps, user: UserRow) {
  return (await paginate<EmailRow>(ctx, deps.db, userEmailsQuery(deps.db, user.id))).map(email);
}

export const userEmailRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/user/emails',
    auth: 'user',
    summary: "The signed-in user's secondary e-mails",
    response: { ...EMAIL, list: true },
    handler: ({ ctx, deps, user }) => emailsPage(ctx, deps, user),
  }),

  route({
    method: 'GET',
    path: '/user/emails/:email_id',
    auth: 'user',
    params: emailId,
    summary: 'One secondary e-mail of the signed-in user',
    response: EMAIL,
    handler: async ({ deps, user, params: v }) => email(await ownEmail(deps, user, v.email_id)),
  }),

  route({
    method: 'POST',
    path: '/user/emails',
    auth: 'user',
    params: { email: p.string().required() },
    summary: 'Add a secondary e-mail to the signed-in user (unconfirmed: Wharf sends no mail)',
    response: EMAIL,
    handler: async ({ deps, user, params: v }) => email(await createEmail(deps, user, { email: v.email })),
  }),

  route({
    method: 'DELETE',
    path: '/user/emails/:email_id',
    auth: 'user',
    params: emailId,
    summary: 'Delete a secondary e-mail of the signed-in user',
    handler: async ({ ctx, deps, user, params: v }) => {
      const row = await ownEmail(deps, user, v.email_id);
      checkUnmodifiedSince(ctx, row.updated_at);
      await deleteEmail(deps, row);
    },
  }),

  route({
    method: 'GET',
    path: '/users/:id/emails',
    auth: 'admin',
    load: 'user',
    summary: "A user's secondary e-mails (admins)",
    response: { ...EMAIL, list: true },
    handler: ({ ctx, deps, target }) => emailsPage(ctx, deps, target),
  }),

  route({
    method: 'POST',
    path: '/users/:id/emails',
    auth: 'admin',
    load: 'user',
    params: { email: p.string().required(), skip_confirmation: p.boolean() },
    summary: 'Add a secondary e-mail to a user (admins; skip_confirmation confirms it)',
    response: EMAIL,
    handler: async ({ deps, target, params: v }) => email(await createEmail(deps, target, { email: v.email, confirmed: v.skip_confirmation === true })),
  }),

  route({
    method: 'DELETE',
    path: '/users/:id/emails/:email_id',
    auth: 'admin',
    load: 'user',
    params: emailId,
    summary: "Delete a user's secondary e-mail (admins)",
    handler: async ({ ctx, deps, target, params: v }) => {
      const row = await ownEmail(deps, target, v.email_id);
      checkUnmodifiedSince(ctx, row.updated_at);
      await deleteEmail(deps, row);
    },
  }),
];
