// Badge URLs (GitLab 10.8's Badge model): validation and rendering. Pure code in store/, shared
// by the badge service (validation) and the badge entity (rendering).
// - Valid: after each known placeholder (`%{project_path}`, `%{project_id}`,
//   `%{default_branch}`, `%{commit_sha}`) is replaced by a dummy value, the stripped URL is an
//   absolute http or https URL with a host and only characters a URI may hold (a `%` starts a
//   two-digit escape; so an unknown `%{...}` is no valid URL). Anything else (`javascript:`,
//   `data:`, `ftp:`, spaces, quotes) is `must be a valid URL`.
// - Rendered: each known placeholder becomes the project's value; one the project has no value
//   for (an empty repository's commit) stays as written, as do unknown ones. Without a project
//   (a group with none) or for an invalid badge, the URL is shown unrendered.
// Written without regular expressions that could backtrack: a single scan of the string.

/** The values placeholders take for one project. */
export interface BadgePlaceholders {
  project_path: string;
  project_id: number;
  default_branch: string | null;
  commit_sha: string | null;
}

const NAMES = ['project_path', 'project_id', 'default_branch', 'commit_sha'] as const;
type Name = (typeof NAMES)[number];

/** Replaces each `%{name}` of a known name by `value(name)` (kept when that is null). */
function replacePlaceholders(url: string, value: (name: Name) => string | null): string {
  let out = '';
  let i = 0;
  while (i < url.length) {
    if (url.startsWith('%{', i)) {
      const close = url.indexOf('}', i + 2);
      const name = close === -1 ? '' : url.slice(i + 2, close);
      if ((NAMES as readonly string[]).includes(name)) {
        const v = value(name as Name);
        out += v ?? url.slice(i, close + 1);
        i = close + 1;
        continue;
      }
    }
    out += url[i];
    i += 1;
  }
  return out;
}

// RFC 3986's unreserved, sub-delims, gen-delims (and `%` for escapes, checked apart).
const URI_CHARS = new Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:/?#[]@%");
const HEX = new Set('0123456789abcdefABCDEF');

function onlyUriCharacters(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const c = url[i];
    if (!URI_CHARS.has(c)) return false;
    if (c === '%' && !(HEX.has(url[i + 1] ?? '') && HEX.has(url[i + 2] ?? ''))) return false;
  }
  return true;
}

/** GitLab's url_placeholder validation of a badge URL (stripped as the model stores it). */
export function isValidBadgeUrl(raw: string): boolean {
  const url = replacePlaceholders(raw.trim(), () => 'foo');
  if (url === '' || !onlyUriCharacters(url)) return false;
  const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase();
  if (scheme !== 'http:' && scheme !== 'https:') return false;
  if (!url.slice(scheme.length).startsWith('//')) return false;
  try {
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}

/** The URL with the project's values in its placeholders; unchanged without a project. */
export function renderBadgeUrl(url: string, placeholders: BadgePlaceholders | null): string {
  if (!placeholders || !isValidBadgeUrl(url)) return url;
  return replacePlaceholders(url, (name) => {
    const v = placeholders[name];
    return v === null ? null : String(v);
  });
}
