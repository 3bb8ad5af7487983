// Which files of a job's checkout its `artifacts: paths` select, as GitLab Runner reads them: a
// path names a file or a folder (taken whole, `dir/` too), with globs (`*.txt`, `**`,
// picomatch's glob syntax, the same doublestar rules as the runner's). Paths are checked before
// anything is read: an absolute path or one with `..` is refused; the walk never follows a
// symbolic link, and a link whose target is outside the checkout is refused (a link inside is
// stored as a link). Each refusal is a line in the trace.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';

/** picomatch, loaded with the first artifacts to collect (a process that runs no job does without it). */
let picomatchLoaded: typeof Picomatch | undefined;
function picomatch(pattern: string, options: Picomatch.PicomatchOptions): Picomatch.Matcher {
  picomatchLoaded ??= createRequire(import.meta.url)('picomatch') as typeof Picomatch;
  return picomatchLoaded(pattern, options);
}

export interface Selected {
  /** Relative to the checkout, with '/'. */
  rel: string;
  kind: 'file' | 'symlink';
}

export interface Selection {
  files: Selected[];
  refused: string[];
}

const MAX_ENTRIES = 100_000;

function badPattern(pattern: string): string | null {
  if (pattern === '' || pattern.includes('\0')) return 'is empty';
  if (pattern.startsWith('/') || path.isAbsolute(pattern) || /^[A-Za-z]:/.test(pattern)) return 'is an absolute path';
  if (pattern.split(/[\\/]/).includes('..')) return 'leaves the project directory';
  return null;
}

/** Every file and link under `root`, relative, without following links (the .git folder skipped). */
function walk(root: string): Selected[] {
  const out: Selected[] = [];
  const stack = [''];
  while (stack.length && out.length < MAX_ENTRIES) {
    const rel = stack.pop()!;
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (!rel && entry.name === '.git') continue;
      if (entry.isDirectory()) stack.push(child);
      else if (entry.isSymbolicLink()) out.push({ rel: child, kind: 'symlink' });
      else if (entry.isFile()) out.push({ rel: child, kind: 'file' });
    }
  }
  return out;
}

function insideRoot(root: string, rel: string): boolean {
  try {
    const real = fs.realpathSync(path.join(root, rel));
    const realRoot = fs.realpathSync(root);
    return real === realRoot || real.startsWith(realRoot + path.sep);
  } catch {
    return false; // a dangling link: nothing to store
  }
}

export function selectArtifacts(root: string, patterns: string[]): Selection {
  const refused: string[] = [];
  const matchers: ((rel: string) => boolean)[] = [];
  for (const raw of patterns) {
    const why = badPattern(raw);
    if (why) {
      refused.push(`${raw}: ${why}, not archived`);
      continue;
    }
    let pattern = raw;
    while (pattern.startsWith('./')) pattern = pattern.slice(2);
    while (pattern.endsWith('/')) pattern = pattern.slice(0, -1);
    const glob = picomatch(pattern, { dot: true });
    // The path itself, or anything under it (a folder is taken whole).
    matchers.push((rel) => {
      if (glob(rel)) return true;
      const parts = rel.split('/');
      for (let i = 1; i < parts.length; i++) if (glob(parts.slice(0, i).join('/'))) return true;
      return false;
    });
  }
  if (!matchers.length) return { files: [], refused };
  const files: Selected[] = [];
  for (const entry of walk(root)) {
    if (!matchers.some((m) => m(entry.rel))) continue;
    if (entry.kind === 'symlink' && !insideRoot(root, entry.rel)) {
      refused.push(`${entry.rel}: a symbolic link outside the project directory, not archived`);
      continue;
    }
    files.push(entry);
  }
  return { files, refused };
}
