// Which language a file is in, from its name alone, as GitHub Linguist names languages (the
// `linguist-languages` package: Linguist's own languages.yml as data), and whether Linguist
// counts the file in a repository's language statistics: not vendored or documentation by
// path (a short list of Linguist's vendor.yml and documentation.yml rules), and of a language
// whose type is programming or markup (data and prose are left out, as Linguist's
// include_in_language_stats? does). A name Linguist would settle by looking at the content
// (`.h`, `.m`, `.pl`) takes the language most repositories mean (Linguist's fallbacks);
// other ambiguous extensions the language whose main extension it is, then by name.
import path from 'node:path';

interface Language {
  name: string;
  type: string;
  group?: string;
  extensions?: string[];
  filenames?: string[];
}

const COUNTED_TYPES = new Set(['programming', 'markup']);

const SETTLED: Record<string, string> = {
  '.md': 'Markdown',
  '.h': 'C',
  '.m': 'Objective-C',
  '.pl': 'Perl',
  '.pm': 'Perl',
  '.t': 'Perl',
  '.sql': 'SQL',
  '.ts': 'TypeScript',
  '.tsx': 'TSX',
  '.rs': 'Rust',
  '.fs': 'F#',
  '.v': 'Verilog',
  '.d': 'D',
  '.r': 'R',
  '.ml': 'OCaml',
  '.php': 'PHP',
  '.ex': 'Elixir',
  '.cs': 'C#',
  '.inc': 'PHP',
  '.json': 'JSON',
  '.yml': 'YAML',
  '.yaml': 'YAML',
  '.txt': 'Text',
  '.html': 'HTML',
};

const VENDORED = [
  /(^|\/)(node_modules|bower_components|vendor|vendors|third[-_]?party|extern|external|Godeps\/_workspace|\.yarn)\//,
  /(^|\/)(cache|\.git|\.github|\.gitlab)\//,
  /\.min\.(js|css)$/,
  /(^|\/)jquery([.-][\d.]+)?(\.min)?\.js$/,
  /(^|\/)(gradlew|gradlew\.bat|mvnw|mvnw\.cmd|configure|config\.guess|config\.sub)$/,
];

const DOCUMENTATION = [
  /^[Dd]ocs?\//,
  /(^|\/)[Dd]ocumentation\//,
  /(^|\/)[Jj]avadoc\//,
  /^[Mm]an\//,
  /^[Ee]xamples?\//,
  /^[Ss]amples?\//,
  /(^|\/)(CHANGE(S|LOG)?|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|README|[Rr]eadme)(\.|$)/,
];

export interface LanguageTable {
  /** The language Linguist counts `file` in (its group's name), or null when it is not counted. */
  countedLanguage(file: string): string | null;
}

export async function loadLanguageTable(): Promise<LanguageTable> {
  const all = Object.values(await import('linguist-languages')) as Language[];
  const byName = new Map(all.map((l) => [l.name, l]));
  const byFilename = new Map<string, Language>();
  const byExtension = new Map<string, Language[]>();
  for (const l of all) {
    for (const f of l.filenames ?? []) if (!byFilename.has(f)) byFilename.set(f, l);
    for (const e of l.extensions ?? []) byExtension.set(e.toLowerCase(), [...(byExtension.get(e.toLowerCase()) ?? []), l]);
  }
  const pick = (ext: string): Language | undefined => {
    const candidates = byExtension.get(ext);
    if (!candidates) return undefined;
    const settled = SETTLED[ext] ? byName.get(SETTLED[ext]) : undefined;
    if (settled) return settled;
    const main = candidates.filter((l) => l.extensions?.[0]?.toLowerCase() === ext);
    const pool = main.length ? main : candidates;
    return pool.find((l) => COUNTED_TYPES.has(l.type)) ?? pool[0];
  };
  const detect = (file: string): Language | undefined => {
    const base = path.posix.basename(file);
    const named = byFilename.get(base);
    if (named) return named;
    // The longest extension first: `.d.ts` before `.ts`, `.blade.php` before `.php`.
    const lower = base.toLowerCase();
    for (let i = lower.indexOf('.', 1); i > 0; i = lower.indexOf('.', i + 1)) {
      const found = pick(lower.slice(i));
      if (found) return found;
    }
    return undefined;
  };
  return {
    countedLanguage(file) {
      if (VENDORED.some((r) => r.test(file)) || DOCUMENTATION.some((r) => r.test(file))) return null;
      const language = detect(file);
      if (!language || !COUNTED_TYPES.has(language.type)) return null;
      return language.group ?? language.name;
    },
  };
}
