// Which refs reach a commit (`git for-each-ref --contains`, what GitLab 10.8's
// branch_names_contains / tag_names_contains ran): the branches and tags whose history holds
// it, and the merge request heads that do (refs/merge-requests/<iid>/head). Native git walks
// this in milliseconds where an object-by-object walk would read every commit of every ref.
import { execFile } from 'node:child_process';

const OID = /^[0-9a-f]{40}$/;

function forEachRef(gitdir: string, commit: string, prefix: string): Promise<string[]> {
  if (!OID.test(commit)) return Promise.reject(new Error('refsContaining needs a commit id'));
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['--git-dir', gitdir, 'for-each-ref', '--contains', commit, '--format=%(refname)', prefix],
      { env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1' }, maxBuffer: 64 << 20 },
      (err, stdout) => {
        if (err) return reject(err);
        resolve(
          stdout
            .toString()
            .split('\n')
            .filter((l) => l.startsWith(prefix))
            .map((l) => l.slice(prefix.length)),
        );
      },
    );
  });
}

/** Branch names (or tag names) whose tip reaches `commit`, in git's ref order. */
export function refNamesContaining(gitdir: string, commit: string, kind: 'branch' | 'tag'): Promise<string[]> {
  return forEachRef(gitdir, commit, kind === 'branch' ? 'refs/heads/' : 'refs/tags/');
}

/** The iids of the merge requests whose head (refs/merge-requests/<iid>/head) reaches `commit`. */
export async function mergeRequestIidsContaining(gitdir: string, commit: string): Promise<number[]> {
  const names = await forEachRef(gitdir, commit, 'refs/merge-requests/');
  return names.flatMap((n) => {
    const m = /^(\d+)\/head$/.exec(n);
    return m ? [Number(m[1])] : [];
  });
}
