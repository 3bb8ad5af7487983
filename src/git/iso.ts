// isomorphic-git, loaded when a repository is first read or written rather than at start:
// parsing the library is about a third of Wharf's start-up time and a fair part of its idle
// memory (issue #12: start-up under a second, under 80 MB idle). The default export behaves
// as the library's own (`git.readBlob(...)`), loading it synchronously on first use.
import { createRequire } from 'node:module';
import type IsomorphicGit from 'isomorphic-git';

type Git = typeof IsomorphicGit;

const require = createRequire(import.meta.url);
let loaded: Git | undefined;

function load(): Git {
  return (loaded ??= require('isomorphic-git') as Git);
}

const git = new Proxy({} as Git, {
  get(_target, name) {
    return (load() as unknown as Record<string | symbol, unknown>)[name];
  },
});

export default git;
