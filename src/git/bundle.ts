// Git bundles, as GitLab 10.8's export and import use them (Gitlab::ImportExport::RepoSaver
// and RepoRestorer): `git bundle create <file> --all` writes every ref of the bare repository
// into project.bundle; an import checks the bundle with `git bundle verify`, refuses ref names
// that git itself would refuse (`git check-ref-format`), and clones it into a new bare
// repository (`git clone --bare`), so a broken bundle never becomes a repository.
import { execFile } from 'node:child_process';

const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };

function git(args: string[], opts: { gitdir?: string; signal?: AbortSignal } = {}): Promise<string> {
  const all = opts.gitdir ? ['--git-dir', opts.gitdir, ...args] : args;
  return new Promise((resolve, reject) => {
    execFile('git', all, { signal: opts.signal, maxBuffer: 64 * 1024 * 1024, env: GIT_ENV }, (err, stdout, stderr) => {
      if (err)
        reject(
          new Error(
            `git ${args[0]} failed: ${String(stderr || err.message)
              .trim()
              .slice(0, 500)}`,
          ),
        );
      else resolve(stdout);
    });
  });
}

/** Whether the repository has any ref at all (an empty repository has no bundle, as in GitLab). */
export async function hasRefs(gitdir: string): Promise<boolean> {
  return (await git(['for-each-ref', '--count=1', '--format=%(refname)'], { gitdir })).trim() !== '';
}

/** `git bundle create <file> --all`. */
export async function createBundle(gitdir: string, file: string, signal?: AbortSignal): Promise<void> {
  await git(['bundle', 'create', file, '--all'], { gitdir, signal });
}

/** The refs a bundle carries (`git bundle list-heads`), after `git bundle verify` passed. */
export async function verifiedBundleRefs(file: string, scratch: string, signal?: AbortSignal): Promise<{ oid: string; ref: string }[]> {
  // verify needs a repository for its prerequisites; a bundle of --all has none, so an empty one does.
  await git(['init', '--quiet', '--bare', scratch], { signal });
  await git(['bundle', 'verify', file], { signal, gitdir: scratch });
  const out = await git(['bundle', 'list-heads', file], { signal });
  const refs: { oid: string; ref: string }[] = [];
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const space = line.indexOf(' ');
    refs.push({ oid: line.slice(0, space), ref: line.slice(space + 1) });
  }
  return refs;
}

/** Whether git accepts `ref` as a full ref name (refs/heads/…, refs/tags/…, HEAD excepted). */
export async function validRefName(ref: string): Promise<boolean> {
  if (ref === 'HEAD') return true;
  if (!ref.startsWith('refs/heads/') && !ref.startsWith('refs/tags/') && !ref.startsWith('refs/merge-requests/')) return false;
  try {
    await git(['check-ref-format', ref]);
    return true;
  } catch {
    return false;
  }
}

/** Makes the bare repository `target` (absent) from the bundle: every ref of it, mirrored. */
export async function cloneBundle(file: string, target: string, signal?: AbortSignal): Promise<void> {
  await git(['clone', '--quiet', '--mirror', file, target], { signal });
  // A mirror clone remembers the bundle as its origin; the repository is on its own.
  await git(['remote', 'remove', 'origin'], { gitdir: target, signal });
  await git(['fsck', '--no-progress', '--no-dangling'], { gitdir: target, signal });
}
