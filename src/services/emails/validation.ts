// The Email model's validations (GitLab 10.8): present, unique among secondary e-mails, in
// Devise's format, and no user's primary e-mail ("has already been taken" twice when it is
// both). The address is checked as stored: stripped and lower-cased. GitLab has no length
// check (its column would refuse the row); Wharf answers the User model's message instead.
import type { Conn } from '../../store/db.js';
import { primaryEmailTaken, secondaryEmailTaken } from '../../finders/emails.js';
import { emailFormatValid } from '../users/validation.js';

const MAX_STRING = 255;

export async function emailErrors(db: Conn, email: string): Promise<string[]> {
  const errors: string[] = [];
  if (email === '') errors.push("can't be blank");
  else if (await secondaryEmailTaken(db, email)) errors.push('has already been taken');
  if (!emailFormatValid(email)) errors.push('is invalid');
  else if (email.length > MAX_STRING) errors.push(`is too long (maximum is ${MAX_STRING} characters)`);
  if (email !== '' && (await primaryEmailTaken(db, email))) errors.push('has already been taken');
  return errors;
}
