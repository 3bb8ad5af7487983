// User shapes: UserBasic (embedded everywhere), User, UserPublic (yourself), UserWithAdmin.
import crypto from 'node:crypto';
import type { Urls } from '../http/urls.js';
import type { Conn } from '../store/db.js';
import type { UserRow } from '../store/rows.js';
import { personalProjectCounts, userCustomAttributes, userIdentities, type IdentityView } from '../finders/users.js';

/**
 * A user's own avatar, or the avatar service's picture for their email as 10.8's
 * GravatarService builds it (size 40 at scale 2; the ssl_url when Wharf is served over https,
 * the plain_url otherwise; the username when there is no e-mail); none when the
 * `gravatar_enabled` setting is off.
 */
export function avatarUrl(user: Pick<UserRow, 'avatar_url' | 'email'> & { username?: string }, urls: Pick<Urls, 'gravatarEnabled' | 'avatar' | 'base'>): string | null {
  if (user.avatar_url) return urls.avatar(user.avatar_url);
  if (!urls.gravatarEnabled) return null;
  const identifier = user.email?.trim() || user.username?.trim();
  if (!identifier) return null;
  const hash = crypto.createHash('md5').update(identifier.toLowerCase()).digest('hex');
  const host = urls.base.startsWith('https:') ? 'https://secure.gravatar.com' : 'https://www.gravatar.com';
  return `${host}/avatar/${hash}?s=80&d=identicon`;
}

export function userBasic(u: UserRow, urls: Urls) {
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    state: u.state,
    avatar_url: avatarUrl(u, urls),
    web_url: urls.user(u.username),
  };
}

export function userEntity(u: UserRow, urls: Urls) {
  return {
    ...userBasic(u, urls),
    created_at: u.created_at,
    bio: u.bio,
    location: u.location,
    skype: u.skype,
    linkedin: u.linkedin,
    twitter: u.twitter,
    website_url: u.website_url,
    organization: u.organization,
  };
}

/**
 * What a user sees of themselves (and admins of anyone). `personalProjects` is the number of
 * projects in the user's namespace: `can_create_project` is whether the limit leaves room.
 */
export function userPublic(u: UserRow, urls: Urls, personalProjects = 0, identities: IdentityView[] = []) {
  return {
    ...userEntity(u, urls),
    last_sign_in_at: u.last_sign_in_at,
    confirmed_at: u.confirmed_at,
    last_activity_on: u.last_activity_on,
    email: u.email,
    theme_id: u.theme_id,
    color_scheme_id: u.color_scheme_id,
    projects_limit: u.projects_limit,
    current_sign_in_at: u.current_sign_in_at,
    identities,
    can_create_group: !!u.can_create_group,
    can_create_project: u.projects_limit - personalProjects > 0,
    two_factor_enabled: false,
    external: !!u.external,
  };
}

export function userWithAdmin(u: UserRow, urls: Urls, personalProjects = 0, identities: IdentityView[] = []) {
  return { ...userPublic(u, urls, personalProjects, identities), is_admin: !!u.admin };
}

/** basic = UserBasic, user = User, public = UserPublic (yourself), admin = UserWithAdmin. */
export type UserView = 'basic' | 'user' | 'public' | 'admin';

/**
 * Renders users in one view, batch-loading what the view needs (personal project counts,
 * custom attributes when an admin asks for them) with one query each.
 */
export async function presentUsers(db: Conn, urls: Urls, rows: UserRow[], view: UserView, opts: { customAttributes?: boolean } = {}) {
  const ids = rows.map((u) => u.id);
  const full = view === 'public' || view === 'admin';
  const counts = full ? await personalProjectCounts(db, ids) : new Map<number, number>();
  const identities = full ? await userIdentities(db, ids) : new Map<number, IdentityView[]>();
  const attributes = opts.customAttributes ? await userCustomAttributes(db, ids) : undefined;
  return rows.map((u) => {
    const n = counts.get(u.id) ?? 0;
    const body =
      view === 'admin' ? userWithAdmin(u, urls, n, identities.get(u.id))
      : view === 'public' ? userPublic(u, urls, n, identities.get(u.id))
      : view === 'user' ? userEntity(u, urls)
      : userBasic(u, urls);
    return attributes ? { ...body, custom_attributes: attributes.get(u.id) ?? [] } : body;
  });
}

export async function presentUser(db: Conn, urls: Urls, row: UserRow, view: UserView, opts: { customAttributes?: boolean } = {}) {
  return (await presentUsers(db, urls, [row], view, opts))[0];
}

/** GitLab's stand-in for a deleted user (authors of issues, merge requests and notes). */
export function ghostUser(urls: Urls) {
  return {
    id: 0,
    name: 'Ghost User',
    username: 'ghost',
    state: 'active',
    avatar_url: avatarUrl({ avatar_url: null, email: 'ghost@example.com' }, urls),
    web_url: urls.user('ghost'),
  };
}
