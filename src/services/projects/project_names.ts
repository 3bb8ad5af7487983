// Project name and path rules (GitLab 10.x's), and deriving a path from a name.

const NAME = /^[\p{L}\p{N}\u00A9-\u{1F9C0}_][\p{L}\p{N}\p{Pd}\u00A9-\u{1F9C0}_. ]*$/u;
const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;

export const NAME_MESSAGE = "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.";
export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

export function validName(name: string): boolean {
  return NAME.test(name);
}

export function validPath(path: string): boolean {
  return PATH.test(path) && !/\.(git|atom)$/i.test(path);
}

/** Rails' `parameterize`: lower case, runs of other characters become one dash. */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\-_]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}
