// User shapes: UserBasic (embedded everywhere), User, UserPublic (yourself), UserWithAdmin.
import crypto from 'node:crypto';
import type { Urls } from '../http/urls.js';
import type { UserRow } from '../store/rows.js';
import type { IdentityView } from '../store/extras.js';

/** Gravatar URLs by host and identifier (an MD5 per user shown is measurable on big lists). */
const gravatars = new Map<string, string>();

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
  const host = urls.base.startsWith('https:') ? 'https://secure.gravatar.com' : 'https://www.gravatar.com';
  const key = `${host} ${identifier}`;
  let url = gravatars.get(key);
  if (url === undefined) {
    const hash = crypto.createHash('md5').update(identifier.toLowerCase()).digest('hex');
    url = `${host}/avatar/${hash}?s=80&d=identicon`;
    if (gravatars.size >= 10_000) gravatars.clear();
    gravatars.set(key, url);
  }
  return url;
}

/** The fields UserBasic shows. */
export type UserBasicFields = Pick<UserRow, 'id' | 'name' | 'username' | 'state' | 'avatar_url' | 'email'>;

export function userBasic(u: UserBasicFields, urls: Urls) {
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
function userPublic(u: UserRow, urls: Urls, personalProjects = 0, identities: IdentityView[] = []) {
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

function userWithAdmin(u: UserRow, urls: Urls, personalProjects = 0, identities: IdentityView[] = []) {
  return { ...userPublic(u, urls, personalProjects, identities), is_admin: !!u.admin };
}

/** basic = UserBasic, user = User, public = UserPublic (yourself), admin = UserWithAdmin. */
export type UserView = 'basic' | 'user' | 'public' | 'admin';

/**
 * A user in one view. `personalProjects` (public and admin views) and `customAttributes`
 * (when an admin asked for them) are loaded beforehand (finders/users.ts).
 */
export function userInView(u: UserRow, urls: Urls, view: UserView, personalProjects = 0, customAttributes?: { key: string; value: string }[], identities: IdentityView[] = []) {
  const body =
    view === 'admin'
      ? userWithAdmin(u, urls, personalProjects, identities)
      : view === 'public'
        ? userPublic(u, urls, personalProjects, identities)
        : view === 'user'
          ? userEntity(u, urls)
          : userBasic(u, urls);
  return customAttributes ? { ...body, custom_attributes: customAttributes } : body;
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
