// GitLab 10.8's Tag entity: name, message, target (10.8+), commit, release.
import type { TagRef } from '../git/reader.js';
import type { CommitInfo } from '../git/reader.js';
import { commitBasic } from './commit.js';

/** `commit` is null when the tag names a tree or blob; there are no releases yet (null). */
export function tagEntity(tag: TagRef, commit: CommitInfo | null) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: commit ? commitBasic(commit) : null,
    release: null,
  };
}
