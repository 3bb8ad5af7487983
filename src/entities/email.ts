// A user's secondary e-mail as GitLab 10.8's Email entity shows it: `{id, email}` only; whether
// it is confirmed is not part of the answer.
import type { EmailRow } from '../store/email_rows.js';

export function email(row: EmailRow) {
  return { id: row.id, email: row.email };
}
