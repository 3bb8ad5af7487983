// The validations GitLab 10.8 runs on an external commit status (app/models/commit_status.rb,
// generic_commit_status.rb): `name` present; `target_url`, when given, an absolute http,
// https, ssh or git URI as Ruby's URI.regexp reads RFC 2396 (AddressableUrlValidator:
// "must be a valid URL") of at most 255 characters. Wharf also bounds `name` and `ref` by
// their 255-character columns with Rails' length message, where 10.8 on PostgreSQL had no
// bound, and refuses a blank `ref` as Ci::Pipeline's validation does. Errors come back as
// Rails' errors hash, attribute by attribute in 10.8's order.

/** Rails' `blank?` for a string. */
export const blank = (v: string | undefined | null): boolean => v === undefined || v === null || v.trim() === '';

// RFC 2396 uric (reserved, unreserved, escaped) with RFC 2732's brackets for IPv6 hosts.
const URIC = "(?:[A-Za-z0-9\\-_.!~*'();/?:@&=+$,\\[\\]]|%[0-9A-Fa-f]{2})";
const ABSOLUTE_URI = new RegExp(`^(?:https?|ssh|git):${URIC}+(?:#${URIC}*)?$`);

/** AddressableUrlValidator with its default protocols. */
function validStatusUrl(value: string): boolean {
  return ABSOLUTE_URI.test(value);
}

const tooLong = (max: number) => `is too long (maximum is ${max} characters)`;

export interface StatusFields {
  name: string;
  ref: string;
  targetUrl?: string;
}

/** Rails' errors hash of the status, empty when it is valid. */
export function statusErrors(f: StatusFields): Record<string, string[]> {
  // The pipeline is created first, and Ci::Pipeline needs a ref (10.8 then failed with a 500).
  if (blank(f.ref)) return { ref: ["can't be blank"] };
  const errors: Record<string, string[]> = {};
  const add = (attr: string, message: string) => (errors[attr] ??= []).push(message);
  if (blank(f.name)) add('name', "can't be blank");
  else if (Array.from(f.name).length > 255) add('name', tooLong(255));
  if (!blank(f.targetUrl)) {
    if (!validStatusUrl(f.targetUrl!)) add('target_url', 'must be a valid URL');
    if (Array.from(f.targetUrl!).length > 255) add('target_url', tooLong(255));
  }
  if (Array.from(f.ref).length > 255) add('ref', tooLong(255));
  return errors;
}
