// One isomorphic-git object cache per repository, bounded, so parsed packfiles are reused
// across requests instead of re-read each time. Pack files are immutable by name, so an
// entry never goes stale; `forget` drops a repository that was removed or moved.
const MAX_REPOSITORIES = 64;

const caches = new Map<string, object>();

/** The cache object to pass as `cache` to isomorphic-git calls on `gitdir`. */
export function cacheFor(gitdir: string): object {
  let cache = caches.get(gitdir);
  if (cache) {
    // Refresh its place: the least recently used repository is evicted first.
    caches.delete(gitdir);
  } else {
    cache = {};
    if (caches.size >= MAX_REPOSITORIES) caches.delete(caches.keys().next().value!);
  }
  caches.set(gitdir, cache);
  return cache;
}

export function forget(gitdir: string): void {
  caches.delete(gitdir);
}
