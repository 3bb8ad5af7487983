// isomorphic-git, loaded when a repository is first read or written rather than at start:
// parsing the library is about a third of Wharf's start-up time and a fair part of its idle
// memory (the goals: start-up under a second, under 80 MB idle). The default export behaves
// as the library's own (`git.readBlob({ fs, gitdir, ... })`), loading it on first use.
//
// The library's small file operations run synchronously: a ref, `packed-refs` or a loose
// object is a few hundred bytes, and each promise-based read is four trips through libuv's
// thread pool (open, stat, read, close) that queue behind the database's reads — a file read
// cost ten times the rest of the request. Pack files, which can be large, are
// still read asynchronously; the library keeps them once read.
import nodeFs from 'node:fs';
import { createRequire } from 'node:module';
import type IsomorphicGit from 'isomorphic-git';

type Git = typeof IsomorphicGit;

const require = createRequire(import.meta.url);
let loaded: Git | undefined;

function load(): Git {
  return (loaded ??= require('isomorphic-git') as Git);
}

function now<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

type Path = nodeFs.PathLike;
const NOTHING = Promise.resolve(undefined);

/** node:fs's promise API, done synchronously but for pack files (see the header). */
const syncPromises = {
  readFile(path?: Path, options?: never): Promise<unknown> {
    // The library probes for a promise API by calling readFile() without a path.
    if (path === undefined) return NOTHING;
    if (typeof path === 'string' && path.endsWith('.pack')) return nodeFs.promises.readFile(path, options);
    return now(() => nodeFs.readFileSync(path, options));
  },
  writeFile: (path: Path, data: string | NodeJS.ArrayBufferView, options?: nodeFs.WriteFileOptions) => now(() => nodeFs.writeFileSync(path, data, options)),
  mkdir: (path: Path, options?: nodeFs.MakeDirectoryOptions) => now(() => nodeFs.mkdirSync(path, options)),
  rmdir: (path: Path, options?: nodeFs.RmDirOptions) => now(() => nodeFs.rmdirSync(path, options)),
  rm: (path: Path, options?: nodeFs.RmOptions) => now(() => nodeFs.rmSync(path, options)),
  unlink: (path: Path) => now(() => nodeFs.unlinkSync(path)),
  stat: (path: Path, options?: never) => now(() => nodeFs.statSync(path, options)),
  lstat: (path: Path, options?: never) => now(() => nodeFs.lstatSync(path, options)),
  readdir: (path: Path, options?: never) => now(() => nodeFs.readdirSync(path, options)),
  readlink: (path: Path, options?: never) => now(() => nodeFs.readlinkSync(path, options)),
  symlink: (target: Path, path: Path, type?: nodeFs.symlink.Type) => now(() => nodeFs.symlinkSync(target, path, type)),
};

/** What callers pass as `fs` (node:fs) is given to the library as this. */
const syncFs = { promises: syncPromises };

const git = new Proxy({} as Git, {
  get(_target, name) {
    const value = (load() as unknown as Record<string | symbol, unknown>)[name];
    if (typeof value !== 'function') return value;
    const fn = value as (args: { fs?: unknown }) => unknown;
    return (args: { fs?: unknown }) => fn(args && args.fs === nodeFs ? { ...args, fs: syncFs } : args);
  },
});

export default git;
