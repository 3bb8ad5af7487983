// A commit's title as GitLab 10.8's Commit#title shows it (the Commit entity's `title`, a
// cherry-pick's list of a merge request's commits): its first line, cut Rails' way when long.

/**
 * Rails' `String#truncate(81, separator: ' ', omission: '…')`, counted in characters (code
 * points, as Ruby does), so titles match GitLab for non-ASCII messages too.
 */
function truncateTitle(title: string): string {
  const chars = Array.from(title);
  if (chars.length <= 81) return title;
  const room = 80; // 81 minus the one-character omission
  const space = chars.lastIndexOf(' ', room);
  const stop = space >= 0 ? space : room;
  return chars.slice(0, stop).join('') + '…';
}

/** The commit title: its first line, cut after 80 characters when 100 or longer (Commit#title). */
export function commitTitle(message: string): string {
  if (message.trim() === '') return '--no commit message';
  const full = message.split(/[\r\n]/, 1)[0];
  return Array.from(full).length < 100 ? full : truncateTitle(full);
}
