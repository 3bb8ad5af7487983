// The languages of a commit's tree, as GitLab 10.8's Repository#languages reports them
// (github-linguist's Repository#languages over the default branch): each counted file's
// blob size summed per language (git/language_table.ts), as a share of the total in percent,
// rounded to two decimals, largest first. Symlinks, submodules and empty files do not count.
// The answer depends on the commit id alone, so it is cached per process.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Lru } from './lru.js';
import { loadLanguageTable, type LanguageTable } from './language_table.js';

const run = promisify(execFile);
const cache = new Lru<string, Record<string, number>>(2_000);
let table: Promise<LanguageTable> | null = null;

/** `{ language: percent }` of `commit`'s tree, in 10.8's order. */
export async function languageShares(gitdir: string, commit: string): Promise<Record<string, number>> {
  const known = cache.get(commit);
  if (known) return known;
  table ??= loadLanguageTable();
  const languages = await table;
  const { stdout } = await run('git', ['--git-dir', gitdir, 'ls-tree', '-r', '-l', '-z', commit], { maxBuffer: 256 << 20 });
  const bytes = new Map<string, number>();
  for (const entry of stdout.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, , size] = entry.slice(0, tab).split(/ +/);
    if (type !== 'blob' || mode === '120000' || size === '0') continue;
    const language = languages.countedLanguage(entry.slice(tab + 1));
    if (language) bytes.set(language, (bytes.get(language) ?? 0) + Number(size));
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const shares = [...bytes].map(([name, n]) => [name, Math.round((n * 10000) / total) / 100] as const);
  shares.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const result = Object.fromEntries(shares);
  cache.set(commit, result);
  return result;
}
