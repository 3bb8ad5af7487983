// Finding users' secondary e-mails (GitLab 10.8's `user.emails`, in id order) and whether an
// address is anyone's, primary or secondary (the Email and User models' uniqueness checks).
import type { Knex } from 'knex';
import type { Conn } from '../store/db.js';
import type { EmailRow } from '../store/email_rows.js';

/** A user's secondary e-mails (GET /user/emails, /users/:id/emails). */
export function userEmailsQuery(db: Conn, userId: number): Knex.QueryBuilder {
  return db('emails').where({ user_id: userId }).orderBy('id', 'asc');
}

export async function findUserEmail(db: Conn, userId: number, emailId: number): Promise<EmailRow | undefined> {
  return db('emails').where({ user_id: userId, id: emailId }).first();
}

/** Whether a user has this primary e-mail (an address already lower-cased). */
export async function primaryEmailTaken(db: Conn, email: string): Promise<boolean> {
  return !!(await db('users').whereRaw('lower(email) = ?', [email]).first('id'));
}

/** Whether this address is a secondary e-mail of anyone but `exceptUserId`. */
export async function secondaryEmailTaken(db: Conn, email: string, exceptUserId: number | null = null): Promise<boolean> {
  const q = db('emails').where({ email });
  if (exceptUserId !== null) q.whereNot('user_id', exceptUserId);
  return !!(await q.first('id'));
}
