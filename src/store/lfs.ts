// Whether Git LFS is on for a project or a group, as GitLab 10.8's Project#lfs_enabled? and
// Namespace#lfs_enabled?: the stored setting, and only while LFS is on for the whole server
// (WHARF_LFS_ENABLED, GitLab's `lfs: enabled` in gitlab.yml). With it off, everything shows
// `lfs_enabled: false` whatever was stored (the setting is kept for when it is on again), and
// the LFS paths of a repository answer 501 (transport/lfs/).

/** A project's or group's `lfs_enabled` as the API shows it and as the LFS endpoints obey it. */
export function lfsEnabled(stored: unknown, onServer: boolean): boolean {
  return onServer && !!stored;
}
