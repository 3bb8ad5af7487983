// GitLab 10.8's Tag and Release entities: a tag's name, message, target (10.8+), commit and
// release (its release notes, or null).
import type { TagRef } from '../git/reader.js';
import type { CommitInfo } from '../git/reader.js';
import { commitBasic } from './commit.js';

/** Entities::Release: what POST/PUT .../release answer and a tag embeds. */
export function releaseEntity(release: { tag: string; description: string }) {
  return { tag_name: release.tag, description: release.description };
}

/** `commit` is null when the tag names a tree or blob; `release` null when it has none. */
export function tagEntity(tag: TagRef, commit: CommitInfo | null, release: { tag: string; description: string } | null = null) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: commit ? commitBasic(commit) : null,
    release: release ? releaseEntity(release) : null,
  };
}
