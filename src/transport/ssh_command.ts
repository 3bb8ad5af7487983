// The command an SSH client asks to run, parsed strictly. What git sends is exactly
//   git-upload-pack '<path>'     (also git-receive-pack, git-upload-archive)
// with `<path>` single-quoted, `namespace/project.git` (scp-like URLs) or `/namespace/
// project.git` (ssh:// URLs). Only that form is accepted: one of the three commands, one
// space, one quoted path, nothing before or after. Nothing is ever given to a shell: the
// command picks which git subcommand Wharf runs, and the path only names a project to look
// up, whose repository folder comes from the database, never from the client's text. The one
// other command is `git-lfs-authenticate <path> download|upload` (the LFS client asking for
// HTTP credentials, which gitlab-shell answered), its path quoted or not.
//
// Refusals, as gitlab-shell printed them on the client's screen:
//   anything but those commands in those forms        GitLab: Disallowed command
//   a path that is not a project path (`..`, `//`)    GitLab: Invalid repository path
import { SSH_COMMANDS, type GitCommand } from './git_access.js';

/** Longer than any command git sends for a project path GitLab allows. */
const MAX_COMMAND = 4096;
/** A path segment: GitLab's namespace and project path characters, not starting with `-`. */
const SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const MAX_SEGMENT = 255;

const DISALLOWED = 'Disallowed command';
const INVALID_PATH = 'Invalid repository path';

type LfsOperation = 'download' | 'upload';

export type SshCommand =
  | { ok: true; command: GitCommand; /** `namespace/project`, without `.git`. */ path: string }
  | { ok: true; command: 'git-lfs-authenticate'; path: string; operation: LfsOperation }
  | { ok: false; message: string };

const LFS_AUTHENTICATE = 'git-lfs-authenticate ';

/** `git-lfs-authenticate <path> <operation>`: exactly three words, one space apart. */
function parseLfsAuthenticate(text: string): SshCommand {
  const words = text.slice(LFS_AUTHENTICATE.length).split(' ');
  if (words.length !== 2 || (words[1] !== 'download' && words[1] !== 'upload')) return { ok: false, message: DISALLOWED };
  let quoted = words[0];
  if (quoted.length >= 2 && quoted[0] === "'" && quoted[quoted.length - 1] === "'") quoted = quoted.slice(1, -1);
  const path = projectPathOf(quoted);
  if (path === null) return { ok: false, message: INVALID_PATH };
  return { ok: true, command: 'git-lfs-authenticate', path, operation: words[1] };
}

/** The project path of a quoted repository path, or null when it is not one. */
export function projectPathOf(quoted: string): string | null {
  let p = quoted.startsWith('/') ? quoted.slice(1) : quoted;
  if (p.endsWith('.git')) p = p.slice(0, -'.git'.length);
  const segments = p.split('/');
  if (segments.length < 2) return null;
  for (const s of segments) {
    if (s === '.' || s === '..' || s.length > MAX_SEGMENT || !SEGMENT.test(s) || s.endsWith('.git')) return null;
  }
  return p;
}

export function parseSshCommand(text: string): SshCommand {
  if (text.length > MAX_COMMAND) return { ok: false, message: DISALLOWED };
  if (text.startsWith(LFS_AUTHENTICATE)) return parseLfsAuthenticate(text);
  const space = text.indexOf(' ');
  const command = space < 0 ? text : text.slice(0, space);
  if (!(SSH_COMMANDS as readonly string[]).includes(command)) return { ok: false, message: DISALLOWED };
  const arg = text.slice(space + 1);
  // Exactly one single-quoted word: a quote, no quote inside, a quote, the end.
  if (space < 0 || arg.length < 2 || arg[0] !== "'" || arg[arg.length - 1] !== "'" || arg.indexOf("'", 1) !== arg.length - 1) {
    return { ok: false, message: DISALLOWED };
  }
  const path = projectPathOf(arg.slice(1, -1));
  if (path === null) return { ok: false, message: INVALID_PATH };
  return { ok: true, command: command as GitCommand, path };
}
