// Reading a GitLab 10.x export archive safely (Gitlab::ImportExport::FileImporter and
// VersionChecker, with the bounds GitLab left to tar): the tar.gz is unpacked into the
// import's own temp folder with an entry filter — only regular files and folders, no
// absolute path, no `..`, no symlink or hard link, at most MAX_ENTRIES entries and
// MAX_UNPACKED_BYTES in all (the read stops at the first violation, so a decompression bomb
// costs no more than the bound) — then VERSION is checked in GitLab's words and
// project.json read when it is an object of at most MAX_TREE_BYTES.
//
// The entries are written here (tar parses, each file is one write stream of ours, modes
// 0644/0755 whatever the archive says), so that unpackArchive settles only once every file
// it opened is closed: a refused or broken archive leaves no write still under way that would
// put files back into the folder the caller then removes.
import fs from 'node:fs';
import path from 'node:path';
import type * as Tar from 'tar';
import { EXPORT_VERSION } from './project_export.js';

/** The archive versions GitLab 10.x wrote, normalized (trailing zeros dropped: 0.2.0 is 0.2). */
const READABLE_VERSIONS: ReadonlySet<string> = new Set(['0.2', '0.2.1', '0.2.2', '0.2.3']);

const MAX_ENTRIES = 10_000;
const MAX_UNPACKED_BYTES = 4 * 1024 ** 3;
const MAX_TREE_BYTES = 200 * 1024 ** 2;

/** An archive that cannot be imported; the message is what `import_error` shows. */
export class ImportError extends Error {}

/** The entry's path as it will be written, or null when it would leave the folder. */
function safeEntryPath(name: string): string | null {
  if (name.includes('\0') || path.isAbsolute(name) || /^[A-Za-z]:/.test(name)) return null;
  const parts = name.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return null;
  return parts.join('/');
}

export async function unpackArchive(file: string, into: string, limits = { entries: MAX_ENTRIES, bytes: MAX_UNPACKED_BYTES }): Promise<void> {
  await fs.promises.mkdir(into, { recursive: true });
  let entries = 0;
  let bytes = 0;
  let refusal: string | null = null;
  let failure: Error | null = null;
  /** The files being written, each until its stream closed. */
  const writing = new Map<fs.WriteStream, Promise<void>>();
  const tar = await import('tar'); // loaded by the first import: an idle process does without it
  const source = fs.createReadStream(file);
  let stop: () => void = () => undefined;
  const parser = new tar.Parser({
    strict: true,
    filter: (name, entry) => {
      if (refusal || failure) return false;
      const type = (entry as Tar.ReadEntry).type;
      const size = (entry as Tar.ReadEntry).size ?? 0;
      entries += 1;
      bytes += size;
      if (safeEntryPath(name) === null) refusal = `The archive holds a path outside its folder: ${JSON.stringify(name.slice(0, 200))}`;
      else if (type !== 'File' && type !== 'OldFile' && type !== 'Directory')
        refusal = `The archive holds a ${type === 'SymbolicLink' ? 'symbolic link' : type === 'Link' ? 'hard link' : `${type} entry`}: ${JSON.stringify(name.slice(0, 200))}`;
      else if (entries > limits.entries) refusal = `The archive holds more than ${limits.entries} files`;
      else if (bytes > limits.bytes) refusal = `The archive unpacks to more than ${limits.bytes} bytes`;
      if (refusal) stop();
      return refusal === null;
    },
    onReadEntry: (entry) => {
      if (refusal || failure) return void entry.resume();
      const target = path.join(into, safeEntryPath(entry.path)!);
      try {
        // Synchronous, so that no folder is still being made once the last stream closed.
        fs.mkdirSync(entry.type === 'Directory' ? target : path.dirname(target), { recursive: true, mode: 0o755 });
      } catch (err) {
        failure = err as Error;
        stop();
        return void entry.resume();
      }
      if (entry.type === 'Directory') return void entry.resume();
      const out = fs.createWriteStream(target, { mode: 0o644 });
      writing.set(
        out,
        new Promise<void>((resolve) =>
          out.once('close', () => {
            writing.delete(out);
            resolve();
          }),
        ),
      );
      out.on('error', (err) => {
        failure ??= err;
        stop();
      });
      entry.pipe(out);
    },
  });
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const settle = async (err?: Error) => {
      if (done) return;
      done = true;
      if (err) failure ??= err;
      if (refusal || failure) {
        source.unpipe(parser);
        source.destroy();
        for (const out of writing.keys()) out.destroy();
      }
      await Promise.all(writing.values());
      if (refusal) reject(new ImportError(refusal));
      else if (failure) reject(new ImportError(`The archive could not be read: ${failure.message}`));
      else resolve();
    };
    stop = () => void settle();
    parser.on('error', (err: Error) => void settle(err));
    parser.on('warn', (_code: string, message: string | Error) => void settle(message instanceof Error ? message : new Error(String(message))));
    source.on('error', (err) => void settle(err));
    parser.on('end', () => void settle());
    source.pipe(parser);
  });
}

/**
 * GitLab's VersionChecker, widened to every GitLab 10.x export: VERSION's first line must be one of the
 * 0.2.x versions GitLab 10.x wrote (0.2.0 to 0.2.3: 10.8's importer took 0.2.3 alone, which
 * would keep a 10.4–10.7 export from moving here), with GitLab's messages otherwise.
 */
export async function checkVersion(dir: string): Promise<void> {
  let version: string;
  try {
    const fd = await fs.promises.open(path.join(dir, 'VERSION'), 'r');
    try {
      const buf = Buffer.alloc(64);
      const { bytesRead } = await fd.read(buf, 0, 64, 0);
      version = buf.subarray(0, bytesRead).toString('utf8').split('\n')[0];
    } finally {
      await fd.close();
    }
  } catch {
    throw new ImportError('Incorrect VERSION format');
  }
  const parsed = /^\s*(\d{1,9}(?:\.\d{1,9}){0,3})\s*$/.exec(version);
  if (!parsed) throw new ImportError('Incorrect VERSION format');
  const norm = (v: string) => {
    const parts = v.split('.').map(Number);
    while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
    return parts.join('.');
  };
  if (!READABLE_VERSIONS.has(norm(parsed[1]))) throw new ImportError(`Import version mismatch: Required ${EXPORT_VERSION} but was ${version}`);
}

export type Tree = Record<string, any>;

const ARRAY_RELATIONS = ['labels', 'milestones', 'issues', 'merge_requests', 'project_members', 'protected_branches', 'snippets'];

/** project.json, bounded and of the expected shape. */
export async function readTree(dir: string, maxBytes = MAX_TREE_BYTES): Promise<Tree> {
  const file = path.join(dir, 'project.json');
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(file);
  } catch {
    throw new ImportError('The archive has no project.json');
  }
  if (!stat.isFile()) throw new ImportError('project.json is not a file');
  if (stat.size > maxBytes) throw new ImportError(`project.json is larger than ${maxBytes} bytes`);
  let tree: unknown;
  try {
    tree = JSON.parse(await fs.promises.readFile(file, 'utf8'));
  } catch {
    throw new ImportError('project.json is not valid JSON');
  }
  if (!tree || typeof tree !== 'object' || Array.isArray(tree)) throw new ImportError('project.json is not an object');
  for (const key of ARRAY_RELATIONS) {
    const value = (tree as Tree)[key];
    if (value !== undefined && value !== null && (!Array.isArray(value) || value.some((v) => !v || typeof v !== 'object' || Array.isArray(v)))) {
      throw new ImportError(`project.json: ${key} is not a list of objects`);
    }
  }
  return tree as Tree;
}
