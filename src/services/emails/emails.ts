// Users' secondary e-mails (GitLab 10.8's Emails::CreateService and DestroyService): adding one
// to a user and deleting it. The checks run in the inserting transaction; a unique-index
// violation from a concurrent writer answers the same 400. Wharf sends no confirmation mail, so
// a new address stays unconfirmed (`confirmed_at` null) unless an admin asks
// `skip_confirmation` (a later GitLab's parameter), which confirms it at once. A user whose
// primary e-mail changes keeps the old one as a secondary e-mail (confirmed as the account
// was), and the new one is no longer a secondary e-mail (10.8's User#update_emails_with_primary_email).
import type { Deps } from '../../deps.js';
import { isUniqueViolation, type Conn } from '../../store/db.js';
import { insertReturningId } from '../../store/ids.js';
import type { UserRow } from '../../store/rows.js';
import type { EmailRow } from '../../store/email_rows.js';
import { now } from '../../store/time.js';
import { Invalid } from '../../store/domain_errors.js';
import { normaliseEmail } from '../users/validation.js';
import { emailErrors } from './validation.js';

const TAKEN = { email: ['has already been taken'] };

/** POST /user/emails, POST /users/:id/emails. */
export async function createEmail(deps: Deps, owner: UserRow, input: { email: string; confirmed?: boolean }): Promise<EmailRow> {
  const address = normaliseEmail(input.email);
  return deps.db.transaction(async (tx) => {
    const errors = await emailErrors(tx, address);
    if (errors.length) throw new Invalid({ email: errors });
    const stamp = now();
    const row = { user_id: owner.id, email: address, confirmed_at: input.confirmed ? stamp : null, created_at: stamp, updated_at: stamp };
    try {
      return { id: await insertReturningId(tx, 'emails', row), ...row };
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid(TAKEN);
      throw err;
    }
  });
}

/** DELETE /user/emails/:email_id, DELETE /users/:id/emails/:email_id. */
export async function deleteEmail(deps: Deps, row: EmailRow): Promise<void> {
  await deps.db('emails').where({ id: row.id }).delete();
}

/** Inside the transaction that changes `user`'s primary e-mail to `email` (already normalised). */
export async function keepPreviousPrimaryEmail(tx: Conn, user: UserRow, email: string): Promise<void> {
  const previous = normaliseEmail(user.email);
  if (previous === email) return;
  await tx('emails').where({ user_id: user.id, email }).delete();
  const stamp = now();
  // GitLab adds it after the commit and ignores a failure: an address taken meanwhile stays taken.
  await tx('emails').insert({ user_id: user.id, email: previous, confirmed_at: user.confirmed_at, created_at: stamp, updated_at: stamp }).onConflict('email').ignore();
}
