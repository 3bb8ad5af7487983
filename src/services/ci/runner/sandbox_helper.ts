// The runner's two file jobs on a checkout, run INSIDE the job's sandbox as the job's user
// (sandbox.ts), so that the server never opens a path the job controls with its own privileges:
// - `collect PATTERNS_JSON`: GitLab Runner's artifacts archiver: the files `artifacts: paths`
//   select (artifact_paths.ts) zipped to standard output, which the server stores;
// - `unpack SOURCES_JSON`: GitLab Runner's artifacts downloader for `dependencies`: each
//   archive unpacked into the checkout, where an entry that is a link, passes through a link,
//   or leaves the folder is refused, each with a line in the trace.
// Standard error is the job's trace. Exit 0: done; 3: nothing to archive; anything else failed.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Entry, ZipFile } from 'yauzl';
import { selectArtifacts } from './artifact_paths.js';
import { writeZip } from './artifacts.js';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

const say = (line: string) => process.stderr.write(`${line}\n`);

async function collect(patterns: string[]): Promise<number> {
  const root = process.cwd();
  const { files, refused } = selectArtifacts(root, patterns);
  for (const line of refused) say(`WARNING: ${line}`);
  if (!files.length) {
    say('WARNING: no files to archive');
    return 3;
  }
  const size = await writeZip(root, files, process.stdout);
  say(`${files.length} files archived (${size} bytes)`);
  return 0;
}

/** Why an entry's name is refused, or null; names come as bytes (yauzl does not check them). */
function badName(name: string): string | null {
  if (!name || name.includes('\0') || name.includes('\\')) return 'is not a valid name';
  if (name.startsWith('/')) return 'is an absolute path';
  if (name.split('/').includes('..')) return 'leaves the project directory';
  return null;
}

/** The folder an entry goes into, made as needed; a reason when a link or a file is in the way. */
function parentFor(root: string, parts: string[]): { dir: string } | { why: string } {
  let dir = root;
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    const next = path.join(dir, part);
    let stat: fs.Stats | null = null;
    try {
      stat = fs.lstatSync(next);
    } catch {
      fs.mkdirSync(next, { mode: 0o755 });
    }
    if (stat?.isSymbolicLink()) return { why: 'passes through a symbolic link' };
    if (stat && !stat.isDirectory()) return { why: 'has a file in its way' };
    dir = next;
  }
  return { dir };
}

async function writeEntry(zip: ZipFile, entry: Entry, target: string, mode: number): Promise<void> {
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW;
  const fd = fs.openSync(target, flags, mode);
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
  await pipeline(stream, fs.createWriteStream('', { fd }));
}

async function unpackOne(root: string, file: string): Promise<void> {
  const yauzl = await import('yauzl');
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.default.open(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: Entry) => {
      void (async () => {
        const name = (entry.fileName as unknown as Buffer).toString('utf8');
        const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
        const parts = name.split('/');
        const isDir = name.endsWith('/');
        const why = badName(name) ?? ((mode & S_IFMT) === S_IFLNK ? 'is a symbolic link' : null);
        if (why) {
          say(`WARNING: ${name}: ${why}, not unpacked`);
          return;
        }
        const place = parentFor(root, isDir ? parts : parts.slice(0, -1));
        if ('why' in place) {
          say(`WARNING: ${name}: ${place.why}, not unpacked`);
          return;
        }
        if (isDir) return;
        const target = path.join(place.dir, parts[parts.length - 1]);
        const existing = fs.lstatSync(target, { throwIfNoEntry: false });
        if (existing && !existing.isFile()) {
          say(`WARNING: ${name}: ${existing.isSymbolicLink() ? 'passes through a symbolic link' : 'has a folder in its way'}, not unpacked`);
          return;
        }
        await writeEntry(zip, entry, target, mode & 0o777 || 0o644);
      })().then(() => zip.readEntry(), reject);
    });
    zip.readEntry();
  });
  zip.close();
}

async function unpack(sources: { label: string; zip: string }[]): Promise<number> {
  const root = process.cwd();
  for (const source of sources) {
    say(`Downloading artifacts for ${source.label}...`);
    await unpackOne(root, source.zip);
  }
  return 0;
}

async function main(): Promise<number> {
  const [op, json] = process.argv.slice(2);
  const arg: unknown = JSON.parse(json ?? 'null');
  if (op === 'collect' && Array.isArray(arg)) return collect(arg.map(String));
  if (op === 'unpack' && Array.isArray(arg)) return unpack(arg as { label: string; zip: string }[]);
  say(`sandbox_helper: unknown operation ${op}`);
  return 2;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    say(`ERROR: ${err.message.split('\n')[0]}`);
    process.exitCode = 1;
  },
);
