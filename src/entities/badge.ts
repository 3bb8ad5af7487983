// GitLab 10.8's badge entities: BasicBadgeDetails (`link_url, image_url, rendered_link_url,
// rendered_image_url`, what `render` previews) and Badge (those, then `id` and `kind`:
// "project" or "group"), rendered with one project's placeholder values (services/badge_urls.ts).
import type { BadgeRow } from '../store/badge_rows.js';
import { renderBadgeUrl, type BadgePlaceholders } from '../store/badge_urls.js';

export function basicBadgeDetails(urls: { link_url: string; image_url: string }, placeholders: BadgePlaceholders | null) {
  return {
    link_url: urls.link_url,
    image_url: urls.image_url,
    rendered_link_url: renderBadgeUrl(urls.link_url, placeholders),
    rendered_image_url: renderBadgeUrl(urls.image_url, placeholders),
  };
}

export function badgeEntity(badge: BadgeRow, placeholders: BadgePlaceholders | null) {
  return { ...basicBadgeDetails(badge, placeholders), id: badge.id, kind: badge.type === 'ProjectBadge' ? 'project' : 'group' };
}
