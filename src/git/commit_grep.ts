// Commits whose message holds a term, as GitLab 10.8's find_commits_by_message ran it
// (`git log <ref> --grep=<term> --regexp-ignore-case --max-count 1000`): newest first from one
// commit, case-insensitively. The term is a fixed string (`--fixed-strings`), so no regex runs
// on user input; the run is bounded (bounded_run.ts).
import { runBoundedGit, type Bounds } from './bounded_run.js';

const COMMIT_SEARCH_LIMIT = 1000;

/** Ids of the commits reachable from `commit` whose message contains `term`. */
export async function commitIdsByMessage(gitdir: string, commit: string, term: string, bounds: Bounds): Promise<string[]> {
  if (term === '' || term.includes('\0')) return [];
  const args = ['log', '--format=%H', `--max-count=${COMMIT_SEARCH_LIMIT}`, '--regexp-ignore-case', '--fixed-strings', `--grep=${term}`, commit, '--'];
  const { stdout } = await runBoundedGit(gitdir, args, bounds);
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length === 40);
}
