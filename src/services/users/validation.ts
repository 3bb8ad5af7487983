// The User model's validations (GitLab 10.8 with Devise 4.4), as `{"message":{field:[...]}}`
// errors in the same order and words. Uniqueness is checked against the database elsewhere.

import { NAMESPACE_PATH_MESSAGE, reservedTopLevel, validNamespacePath } from '../groups/namespace_rules.js';

// Devise's default e-mail format.
const EMAIL_FORMAT = /^[^@\s]+@[^@\s]+$/;

const MAX_INT = 2147483647;
const MAX_STRING = 255;

export interface UserAttributes {
  email?: string;
  password?: string;
  name?: string;
  username?: string;
  bio?: string | null;
  projects_limit?: number;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  website_url?: string;
  organization?: string | null;
  location?: string | null;
}

/** Whether an address passes Devise's e-mail format (users' and secondary e-mails alike). */
export function emailFormatValid(email: string): boolean {
  return EMAIL_FORMAT.test(email);
}

/** Devise stores e-mails stripped and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Username rules (the personal namespace's path rules); empty when valid. */
function usernameErrors(username: string): string[] {
  if (username.trim() === '') return ["can't be blank"];
  const errors: string[] = [];
  if (username.length > MAX_STRING) errors.push(`is too long (maximum is ${MAX_STRING} characters)`);
  if (!validNamespacePath(username)) errors.push(NAMESPACE_PATH_MESSAGE);
  else if (reservedTopLevel(username)) errors.push(`${username} is a reserved name`);
  return errors;
}

/**
 * Errors for the attributes given (undefined = not given). On create, `password` undefined
 * means none was set, which Devise refuses.
 */
export function userErrors(a: UserAttributes, creating: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  if (a.email !== undefined) {
    if (a.email.trim() === '') add('email', "can't be blank");
    else if (!EMAIL_FORMAT.test(a.email)) add('email', 'is invalid');
    else if (a.email.length > MAX_STRING) add('email', `is too long (maximum is ${MAX_STRING} characters)`);
  }
  if (a.password !== undefined || creating) {
    const pw = a.password ?? '';
    if (pw === '') add('password', "can't be blank");
    else if (pw.length < 8) add('password', 'is too short (minimum is 8 characters)');
    else if (pw.length > 128) add('password', 'is too long (maximum is 128 characters)');
  }
  if (a.name !== undefined) {
    if (a.name.trim() === '') add('name', "can't be blank");
    else if (a.name.length > MAX_STRING) add('name', `is too long (maximum is ${MAX_STRING} characters)`);
  }
  if (a.bio && a.bio.length > MAX_STRING) add('bio', `is too long (maximum is ${MAX_STRING} characters)`);
  if (a.projects_limit !== undefined) {
    if (a.projects_limit < 0) add('projects_limit', 'must be greater than or equal to 0');
    else if (a.projects_limit > MAX_INT) add('projects_limit', `must be less than or equal to ${MAX_INT}`);
  }
  if (a.username !== undefined) for (const m of usernameErrors(a.username)) add('username', m);
  // Not validated by GitLab, but longer values would not fit their columns.
  for (const field of ['skype', 'linkedin', 'twitter', 'website_url', 'organization', 'location'] as const) {
    const v = a[field];
    if (v && v.length > MAX_STRING) add(field, `is too long (maximum is ${MAX_STRING} characters)`);
  }
  return errors;
}
