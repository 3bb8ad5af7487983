// A snapshot of a bare repository as GitLab 10.8 serves it (GET /projects/:id/snapshot,
// answered by Gitaly's GetSnapshot through Workhorse): an uncompressed tar of the files git
// needs to read the repository, HEAD, packed-refs, refs/ and objects/ (no config, hooks or
// logs), taken while the repository is in use, so possibly inconsistent, as 10.8 says of it:
// it is meant to rescue data from a repository that `git clone` can no longer read. Objects
// still being written (git's and Wharf's temporary files) are left out.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

const PARTS = ['HEAD', 'packed-refs', 'refs', 'branches', 'objects'];
const WRITING = /(^|\/)(tmp_|tmp-|incoming-)[^/]*$|\.lock$/;

/** The tar stream of `gitdir`'s snapshot. */
export async function snapshotTar(gitdir: string): Promise<Readable> {
  const tar = await import('tar'); // loaded when first asked: an idle process does without it
  const parts = PARTS.filter((p) => fs.existsSync(path.join(gitdir, p)));
  // node-tar's stream is a Minipass, not a Node stream: Koa pipes a Readable.
  return Readable.from(tar.c({ cwd: gitdir, portable: true, filter: (p) => !WRITING.test(p) }, parts));
}
