// Content and file name search in one commit's tree, as GitLab 10.8's blob search found them
// (Gitlab::Git::Repository#search_files_by_content and #search_files_by_name):
// - content: `git grep -i -I -n -z` with two lines of context on each side; each group of
//   lines (git separates them with `--`) is one hit, its first line number the `startline`.
//   10.8 escaped the term into an extended regex; it is passed here as a fixed string (`-F`),
//   the same match without any regex engine running on user input. Binary files are skipped.
// - names: `git ls-tree -r --full-tree` with the term as a literal pathspec: a file's exact
//   path, or a folder, whose files it lists (10.8 escaped the term, so globs never applied).
// Both are bounded (bounded_run.ts); 10.8 kept the first 100 of each, and so does this.
import { runBoundedGit, type Bounds } from './bounded_run.js';

const SEARCH_BATCH = 100;

export interface ContentHit {
  path: string;
  startline: number;
  /** The group's lines, each ending with a newline. */
  data: string;
}

export interface NameHit {
  path: string;
  oid: string;
}

/** A term no line can hold (a line break or NUL) matches nothing; neither does an empty one. */
function searchable(term: string): boolean {
  return term !== '' && !term.includes('\n') && !term.includes('\0');
}

const SEPARATOR = Buffer.from('\n--\n');

/** The `--` lines of a chunk (one cut across two chunks is missed: git then runs a little longer). */
function countSeparators(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(SEPARATOR); at >= 0; at = chunk.indexOf(SEPARATOR, at + SEPARATOR.length - 1)) n++;
  return n;
}

/** One `<commit>:<path>\0<line>\0<text>` line of git grep -z. */
function parseLine(line: string, prefix: string): { path: string; line: number; text: string } | null {
  if (!line.startsWith(prefix)) return null;
  const pathEnd = line.indexOf('\0', prefix.length);
  const numberEnd = pathEnd < 0 ? -1 : line.indexOf('\0', pathEnd + 1);
  if (numberEnd < 0) return null;
  return { path: line.slice(prefix.length, pathEnd), line: Number(line.slice(pathEnd + 1, numberEnd)), text: line.slice(numberEnd + 1) };
}

function hitOf(lines: string[], prefix: string): ContentHit | null {
  let hit: ContentHit | null = null;
  for (const raw of lines) {
    const parsed = parseLine(raw, prefix);
    if (!parsed) continue;
    hit ??= { path: parsed.path, startline: parsed.line, data: '' };
    hit.data += `${parsed.text}\n`;
  }
  return hit;
}

/** The first 100 groups of lines holding `term` (case-insensitively) in `commit`'s files. */
export async function grepContent(gitdir: string, commit: string, term: string, bounds: Bounds): Promise<ContentHit[]> {
  if (!searchable(term)) return [];
  const args = ['grep', '-i', '-I', '-n', '-z', '--no-color', '--before-context', '2', '--after-context', '2', '-F', '-e', term, commit, '--'];
  // Once a 101st group has begun, the first 100 are whole: git need not go on.
  let separators = 0;
  const enough = (chunk: Buffer) => (separators += countSeparators(chunk)) >= SEARCH_BATCH;
  const { stdout, cut } = await runBoundedGit(gitdir, args, bounds, enough);
  const lines = stdout.toString('utf8').split('\n');
  lines.pop(); // after the last newline: nothing, or the line the cap cut
  const groups: string[][] = [[]];
  for (const line of lines) {
    if (line === '--') groups.push([]);
    else groups[groups.length - 1].push(line);
  }
  if (cut) groups.pop(); // maybe incomplete
  const prefix = `${commit}:`;
  return groups
    .slice(0, SEARCH_BATCH)
    .map((g) => hitOf(g, prefix))
    .filter((h): h is ContentHit => h !== null);
}

/** The first 100 files at the path `term` (or under the folder `term`), leading slashes dropped. */
export async function filesNamed(gitdir: string, commit: string, term: string, bounds: Bounds): Promise<NameHit[]> {
  let start = 0;
  while (term[start] === '/') start++;
  const path = term.slice(start);
  if (!searchable(path)) return [];
  const { stdout } = await runBoundedGit(gitdir, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', `:(literal)${path}`], bounds);
  const hits: NameHit[] = [];
  for (const entry of stdout.toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    const [, type, oid] = entry.slice(0, tab).split(' ');
    if (tab > 0 && type === 'blob') hits.push({ path: entry.slice(tab + 1), oid });
    if (hits.length === SEARCH_BATCH) break;
  }
  return hits;
}
