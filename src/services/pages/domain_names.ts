// A Pages domain's name as GitLab 10.8's PagesDomain validates it: a hostname (the
// validates_hostname rules with numeric labels allowed: 1–255 characters, labels of 1–63
// letters, digits and hyphens that neither start nor end with a hyphen, no empty label, no
// final dot — so a path, a port, a scheme or a space is refused), not ending with the Pages
// host (`*.<pages host> is restricted`). Messages are the validator's, each once, in its order.

const LABEL_CHARS = new Set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-');

export function hostnameErrors(domain: string): string[] {
  const errors = new Set<string>();
  if (domain.length < 1 || domain.length > 255) errors.add('must be between 1 and 255 characters long');
  const labels = domain.split('.');
  const inner = domain.endsWith('.') ? labels.slice(0, -1) : labels;
  for (const label of inner) {
    if (label.length < 1 || label.length > 63) errors.add('must be between 1 and 63 characters long');
    if (label.startsWith('-') || label.endsWith('-')) errors.add('begins or ends with hyphen');
    if ([...label].some((c) => !LABEL_CHARS.has(c))) errors.add('contains invalid characters (valid characters: [a-z0-9\\-])');
  }
  if (domain.includes('..')) errors.add('must not contain consecutive dots');
  if (domain.endsWith('.')) errors.add('must not end with a dot');
  return [...errors];
}

/** PagesDomain#validate_pages_domain: nothing under the Pages host itself. */
export function restrictedDomainError(domain: string, pagesHost: string): string | null {
  return domain.toLowerCase().endsWith(pagesHost) ? `*.${pagesHost} is restricted` : null;
}
