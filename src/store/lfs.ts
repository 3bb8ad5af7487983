// Git LFS on this server: not built yet, so Wharf answers as GitLab 10.8 does with
// `lfs: enabled: false` in gitlab.yml: every project and group shows `lfs_enabled: false`
// (Project#lfs_enabled? and Group#lfs_enabled? are false while LFS is off, whatever the
// stored setting, which is kept for when it is on), and the LFS paths of a repository answer
// 501 (transport/lfs_disabled.ts).
const LFS_ENABLED_ON_SERVER = false;

/** A project's or group's `lfs_enabled` as the API shows it. */
export function lfsEnabled(stored: unknown): boolean {
  return LFS_ENABLED_ON_SERVER && !!stored;
}
