// The blobs a project's search finds (GitLab 10.8's Gitlab::FileFinder): the first 100 groups
// of matching lines of the ref's files (git/grep.ts), then the first 100 files whose path is
// the term (or under it), less those the content already found, all sorted by file name (then
// line). Content hits hold their lines with the context, `startline` the first of them, and
// no blob id; name hits the first 1024 bytes of the file, `startline` 1, its blob id
// (entities/search_blob.ts renders both).
import { filesNamed, grepContent } from '../../git/grep.js';
import type { Bounds } from '../../git/bounded_run.js';
import type { RepoReader } from '../../git/reader.js';

/** One hit: a group of matching lines (`id` null), or a file found by its name (`id` its blob). */
export interface FoundBlob {
  path: string;
  startline: number;
  data: string;
  id: string | null;
}

/** How long a repository search may run, and how much git output it reads. */
export const SEARCH_BOUNDS: Bounds = { timeoutMs: 10_000, maxBytes: 8 << 20 };

const NAME_HIT_BYTES = 1024;

/** Every blob `term` finds at `commit`, in 10.8's order. */
export async function searchBlobs(reader: RepoReader, commit: string, term: string): Promise<FoundBlob[]> {
  const [content, names] = await Promise.all([grepContent(reader.gitdir, commit, term, SEARCH_BOUNDS), filesNamed(reader.gitdir, commit, term, SEARCH_BOUNDS)]);
  const found: FoundBlob[] = content.map((h) => ({ ...h, id: null }));
  const seen = new Set(content.map((h) => h.path));
  const byName = await Promise.all(
    names
      .filter((n) => !seen.has(n.path))
      .map(async (n) => {
        const bytes = (await reader.blob(n.oid)) ?? new Uint8Array();
        const data = Buffer.from(bytes.subarray(0, NAME_HIT_BYTES)).toString('utf8');
        return { path: n.path, startline: 1, data, id: n.oid };
      }),
  );
  return [...found, ...byName].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startline - b.startline));
}
