// Repository archives as `git archive` (behind GitLab Workhorse) produced them: every entry
// under a `<prefix>/` folder, in tree order, directories before their contents, modes as git
// archive writes them (umask 002 for tar), symlinks kept, submodules as empty folders, every
// mtime the commit time. The bytes are deterministic: fixed mtimes and a gzip header without
// time or name. Blobs are read one at a time as the archive is consumed, so a big repository
// is never held in memory whole. bzip2 pipes through the system `bzip2` binary, as Workhorse
// did: no maintained npm package compresses bzip2 as a stream.
import { spawn } from 'node:child_process';
import { PassThrough, Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Archiver } from 'archiver';
import { readBlob, readCommit, readTree } from './odb.js';

export interface ArchiveFormat {
  /** The file name extension (GitLab normalises the aliases). */
  ext: 'tar.gz' | 'tar.bz2' | 'tar' | 'zip';
  contentType: string;
}

/** Gitlab::Git::Repository#archive_file_path: known aliases, anything else is tar.gz. */
export function archiveFormat(raw: string | undefined): ArchiveFormat {
  const f = (raw ?? 'tar.gz').toLowerCase();
  if (['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].includes(f)) return { ext: 'tar.bz2', contentType: 'application/octet-stream' };
  if (f === 'tar') return { ext: 'tar', contentType: 'application/octet-stream' };
  if (f === 'zip') return { ext: 'zip', contentType: 'application/zip' };
  return { ext: 'tar.gz', contentType: 'application/octet-stream' };
}

/** The formats Gitlab::PathRegex.archive_formats_regex accepts as a URL suffix. */
export const URL_FORMATS = ['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'];

/** A source that reads its blob only when the archiver gets to it. */
function lazyBlob(gitdir: string, oid: string): Readable {
  let started = false;
  return new Readable({
    read() {
      if (started) return;
      started = true;
      readBlob(gitdir, oid).then(
        (blob) => {
          this.push(blob);
          this.push(null);
        },
        (err: Error) => this.destroy(err),
      );
    },
  });
}

async function appendTree(archive: Archiver, gitdir: string, treeOid: string, prefix: string, date: Date, zip: boolean): Promise<void> {
  const tree = await readTree(gitdir, treeOid); // git's order, as git archive writes it
  const dirMode = zip ? 0o755 : 0o775;
  for (const e of tree) {
    const name = `${prefix}${e.name}`;
    if (e.type === 'tree') {
      archive.append(Buffer.alloc(0), { name: `${name}/`, type: 'directory', date, mode: dirMode });
      await appendTree(archive, gitdir, e.oid, `${name}/`, date, zip);
    } else if (e.type === 'commit') {
      archive.append(Buffer.alloc(0), { name: `${name}/`, type: 'directory', date, mode: dirMode });
    } else if (e.mode === '120000') {
      const blob = await readBlob(gitdir, e.oid);
      // archiver's own symlink() stamps the current time; append keeps the entry deterministic.
      archive.append(Buffer.alloc(0), { name, type: 'symlink', linkname: Buffer.from(blob).toString('utf8'), date, mode: 0o777 } as never);
    } else {
      const exec = e.mode === '100755';
      const mode = zip ? (exec ? 0o755 : 0o644) : exec ? 0o775 : 0o664;
      archive.append(lazyBlob(gitdir, e.oid), { name, date, mode });
    }
  }
}

/**
 * Gathers the archiver's many small writes (a 512-byte tar header per entry, then the data)
 * into large chunks: each write into an async zlib stream is one round trip to the thread
 * pool, which made the compressor wait more than it worked.
 */
function coalesce(size = 1 << 20): Transform {
  let parts: Buffer[] = [];
  let held = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      parts.push(chunk);
      held += chunk.length;
      if (held >= size) {
        this.push(Buffer.concat(parts, held));
        parts = [];
        held = 0;
      }
      done();
    },
    flush(done) {
      if (held) this.push(Buffer.concat(parts, held));
      done();
    },
  });
}

/** The archive of a commit's tree under `<prefix>/`, as a stream of the format's bytes. */
export function archiveStream(gitdir: string, commitOid: string, prefix: string, format: ArchiveFormat): Readable {
  const zip = format.ext === 'zip';
  const out = new PassThrough();
  const fail = (err: Error) => out.destroy(err);
  (async () => {
    // archiver is loaded by the first archive, not at start (start-up time and idle memory).
    const { TarArchive, ZipArchive } = await import('archiver');
    const archive: Archiver = zip ? new ZipArchive({ zlib: { level: 6 } }) : new TarArchive({});
    archive.on('error', fail);
    let stream: Readable = archive;
    if (format.ext === 'tar.gz') stream = archive.pipe(coalesce()).pipe(zlib.createGzip({ chunkSize: 256 * 1024 }));
    if (format.ext === 'tar.bz2') {
      const bzip2 = spawn('bzip2', ['-c', '-9'], { stdio: ['pipe', 'pipe', 'ignore'] });
      bzip2.on('error', fail);
      bzip2.stdin.on('error', () => {}); // the client went away; bzip2 exits on its own
      archive.pipe(coalesce(256 * 1024)).pipe(bzip2.stdin);
      stream = bzip2.stdout;
      out.on('close', () => bzip2.kill());
    }
    stream.on('error', fail);
    stream.pipe(out);
    const commit = await readCommit(gitdir, commitOid);
    const date = new Date(commit.committer.timestamp * 1000);
    archive.append(Buffer.alloc(0), { name: `${prefix}/`, type: 'directory', date, mode: zip ? 0o755 : 0o775 });
    await appendTree(archive, gitdir, commit.tree, `${prefix}/`, date, zip);
    await archive.finalize();
  })().catch(fail);
  return out;
}
