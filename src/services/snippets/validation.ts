// A snippet's validations, in GitLab 10.8's order and words (the Snippet model, and
// BaseService#deny_visibility_level, which the services ask first and alone), plus two of
// Wharf's own for content GitLab would take and choke on later:
// - a restricted visibility level (application setting) is refused to non-admins:
//   `visibility_level: "<level> has been restricted by your GitLab administrator"`;
// - title present and at most 255 characters; file_name at most 255; content present;
// - content at most `max_attachment_size` MB (`is too long (maximum is 10 MB)`): 10.8 has no
//   snippet limit, so Wharf borrows the attachment limit, as later GitLab does with its own;
// - content that is not text (a NUL byte, as git tells binary files) is refused: a snippet is
//   served back as text/plain.
import type { UserRow } from '../../store/rows.js';
import { visibilityName } from '../../policy/levels.js';
import { isAdmin } from '../../policy/users.js';
import type { SnippetSettings } from './snippet_settings.js';

export type SnippetErrors = Record<string, string[]>;

/** The attributes of a snippet as they will be stored. */
export interface SnippetValues {
  title: string;
  file_name: string | null;
  content: string;
  visibility_level: number;
}

/** Values as a request may set them (a JSON null clears a value, which the model then judges). */
export type GivenSnippetValues = { [K in keyof SnippetValues]: SnippetValues[K] | null };

const MAX_LENGTH = 255;

function blank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

function tooLong(value: string | null): boolean {
  if (value === null) return false;
  // Characters, as Ruby counts them (not UTF-16 units).
  return value.length > MAX_LENGTH && [...value].length > MAX_LENGTH;
}

/** deny_visibility_level: the error for a level the user may not give, or null. */
export function deniedVisibility(user: UserRow, level: number, settings: SnippetSettings): SnippetErrors | null {
  if (isAdmin(user) || !settings.restrictedVisibilityLevels.includes(level)) return null;
  return { visibility_level: [`${visibilityName(level)} has been restricted by your GitLab administrator`] };
}

/** The model's errors (empty when valid). */
export function snippetErrors(values: GivenSnippetValues, settings: SnippetSettings): SnippetErrors {
  const errors: SnippetErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (blank(values.title)) add('title', "can't be blank");
  if (tooLong(values.title)) add('title', `is too long (maximum is ${MAX_LENGTH} characters)`);
  if (tooLong(values.file_name)) add('file_name', `is too long (maximum is ${MAX_LENGTH} characters)`);
  if (blank(values.content)) add('content', "can't be blank");
  const content = values.content ?? '';
  const maxBytes = settings.maxAttachmentSize * 1024 * 1024;
  if (Buffer.byteLength(content, 'utf8') > maxBytes) add('content', `is too long (maximum is ${settings.maxAttachmentSize} MB)`);
  if (content.includes('\u0000')) add('content', 'must be text (it contains a NUL byte, as binary data does)');
  return errors;
}
