// Adding, changing and removing badges of projects and groups (GitLab 10.8's
// Badges::CreateService, UpdateService and the model's validation), and the placeholder values
// a project gives them (Badge::PLACEHOLDERS: its full path, id, default branch and that
// branch's head commit, read from the repository). URLs are stored stripped; an invalid one is
// `must be a valid URL` and nothing is written. The caller has checked the permissions.
import type { Conn } from '../store/db.js';
import { insertReturningId } from '../store/ids.js';
import type { ProjectWithNamespace } from '../store/rows.js';
import type { BadgeRow } from '../store/badge_rows.js';
import type { RepoStore } from '../git/repos.js';
import { now } from '../store/time.js';
import { Invalid } from '../store/domain_errors.js';
import { RepoReader } from '../git/reader.js';
import { fullPathOf, gitdirOf } from '../finders/projects.js';
import { isValidBadgeUrl, type BadgePlaceholders } from '../store/badge_urls.js';

export interface BadgeUrls {
  link_url: string;
  image_url: string;
}

export type BadgeOwner = { type: 'ProjectBadge'; projectId: number } | { type: 'GroupBadge'; groupId: number };

/** The model's errors for these URLs (each checked as given), or null. */
export function badgeErrors(urls: BadgeUrls): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  if (!isValidBadgeUrl(urls.link_url)) errors.link_url = ['must be a valid URL'];
  if (!isValidBadgeUrl(urls.image_url)) errors.image_url = ['must be a valid URL'];
  return Object.keys(errors).length ? errors : null;
}

function stripped(urls: BadgeUrls): BadgeUrls {
  return { link_url: urls.link_url.trim(), image_url: urls.image_url.trim() };
}

export async function createBadge(db: Conn, owner: BadgeOwner, urls: BadgeUrls): Promise<BadgeRow> {
  const errors = badgeErrors(urls);
  if (errors) throw new Invalid(errors);
  const stamp = now();
  const id = await insertReturningId(db, 'badges', {
    type: owner.type,
    project_id: owner.type === 'ProjectBadge' ? owner.projectId : null,
    group_id: owner.type === 'GroupBadge' ? owner.groupId : null,
    ...stripped(urls),
    created_at: stamp,
    updated_at: stamp,
  });
  return db('badges').where({ id }).first();
}

export async function updateBadge(db: Conn, badge: BadgeRow, changes: Partial<BadgeUrls>): Promise<BadgeRow> {
  const next = { link_url: changes.link_url ?? badge.link_url, image_url: changes.image_url ?? badge.image_url };
  const errors = badgeErrors(next);
  if (errors) throw new Invalid(errors);
  const urls = stripped(next);
  if (urls.link_url !== badge.link_url || urls.image_url !== badge.image_url) {
    await db('badges')
      .where({ id: badge.id })
      .update({ ...urls, updated_at: now() });
  }
  return db('badges').where({ id: badge.id }).first();
}

export async function deleteBadge(db: Conn, badge: BadgeRow): Promise<void> {
  await db('badges').where({ id: badge.id }).delete();
}

/** What the placeholders of badges become for this project. */
export async function badgePlaceholders(repos: RepoStore, project: ProjectWithNamespace): Promise<BadgePlaceholders> {
  const branch = project.default_branch;
  let sha: string | null = null;
  if (branch) {
    try {
      sha = await new RepoReader(gitdirOf(repos, project)).resolveCommit(branch);
    } catch {
      sha = null; // no repository on disk: the placeholder stays
    }
  }
  return { project_path: fullPathOf(project), project_id: project.id, default_branch: branch, commit_sha: sha };
}
