// Path rules shared by every namespace (a user's username is its namespace path, a group's
// path likewise): the format, and the words that would hide the web application's routes.

export const NAMESPACE_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

const NAMESPACE_PATH = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/;

export function validNamespacePath(path: string): boolean {
  return NAMESPACE_PATH.test(path) && !/\.(git|atom)$/.test(path);
}

/** Top-level paths that would hide the web application's own routes. */
const TOP_LEVEL_ROUTES = [
  '-',
  '.well-known',
  '404.html',
  '422.html',
  '500.html',
  '502.html',
  '503.html',
  'abuse_reports',
  'admin',
  'api',
  'apple-touch-icon-precomposed.png',
  'apple-touch-icon.png',
  'assets',
  'autocomplete',
  'ci',
  'dashboard',
  'deploy.html',
  'explore',
  'favicon.ico',
  'files',
  'groups',
  'health_check',
  'help',
  'import',
  'invites',
  'jwt',
  'koding',
  'notification_settings',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  's',
  'search',
  'sent_notifications',
  'slash-command-logo.png',
  'snippets',
  'u',
  'unsubscribes',
  'uploads',
  'users',
];

/** Subgroup paths that would hide a project's routes (`/ns/project/badges/...`). */
const GROUP_PATH_WORDS = [
  '-',
  'badges',
  'blame',
  'blob',
  'builds',
  'commits',
  'create',
  'create_dir',
  'edit',
  'environments/folders',
  'files',
  'find_file',
  'gitlab-lfs/objects',
  'info/lfs/objects',
  'new',
  'preview',
  'raw',
  'refs',
  'tree',
  'update',
  'wikis',
];

const TOP_LEVEL = new Set(TOP_LEVEL_ROUTES.map((w) => w.toLowerCase()));

export function reservedTopLevel(path: string): boolean {
  return TOP_LEVEL.has(path.toLowerCase());
}

/** A full path whose first segment is a top-level route, or a later one a project route. */
export function reservedFullPath(fullPath: string): boolean {
  const segments = fullPath.split('/');
  return segments.some((_, i) => {
    const rest = `${segments.slice(i).join('/')}/`.toLowerCase();
    const words = i === 0 ? TOP_LEVEL_ROUTES : GROUP_PATH_WORDS;
    return words.some((w) => rest.startsWith(`${w}/`));
  });
}
