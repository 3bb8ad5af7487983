// Server paths out of what git tells a client (its stderr, its side-band messages): GitLab's
// clients only ever see repository-relative paths, whatever the transport.
import fs from 'node:fs';

/**
 * Git's messages with the server's paths taken out: a path inside the repository becomes
 * repository-relative (`refs/heads/master.lock`, as GitLab shows it), the repository itself
 * its project path, and any other path under the repositories root loses the root.
 */
export function redactPaths(text: string, gitdir: string, projectPath: string, root: string): string {
  let out = text;
  for (const dir of new Set([gitdir, realpathOr(gitdir)])) out = out.split(`${dir}/./`).join('').split(`${dir}/`).join('').split(dir).join(`${projectPath}.git`);
  for (const dir of new Set([root, realpathOr(root)])) out = out.split(`${dir}/`).join('').split(dir).join('');
  return out;
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
