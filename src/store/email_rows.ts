// Row type of the secondary e-mail table (migrations/20261202000057_emails.ts).

export interface EmailRow {
  id: number;
  user_id: number;
  /** Lower-cased and stripped, as GitLab's Email model writes it. */
  email: string;
  /** Null until confirmed (Wharf sends no mail: only an admin's skip_confirmation sets it). */
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}
