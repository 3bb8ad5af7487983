// Request bodies, read as Rack reads them for GitLab: JSON, form-urlencoded and multipart
// (fields and files), bracketed keys parsed like the query string. Called after
// authentication and only for a route that exists (src/app.ts), so a stranger cannot make
// the server read, inflate or store anything. One limit, WHARF_MAX_BODY_BYTES, holds for the
// decoded body of every kind: more is 413. A malformed body, a broken Content-Encoding or a
// broken multipart body is the client's 400, never a 500. Uploaded files are written to a
// folder of the request's own, which the returned release function removes.
import type Koa from 'koa';
import type * as KoaBodyModule from 'koa-body';
import { createRequire } from 'node:module';
import type busboyModule from 'busboy';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Transform, type Readable, type Writable } from 'node:stream';
import qs from 'qs';
import { ApiError } from './errors.js';
import { RACK_QUERY } from './params.js';

/** busboy, loaded on the first multipart body (most processes never parse one: 4 MB less at idle). */
let busboyLoaded: typeof busboyModule | undefined;
function busboy(config: busboyModule.BusboyConfig): busboyModule.Busboy {
  busboyLoaded ??= createRequire(import.meta.url)('busboy') as typeof busboyModule;
  return busboyLoaded(config);
}

/** koa-body, loaded on the first JSON or form body: it brings formidable along, 5 MB of heap a process that only answers reads never needs. */
let koaBodyLoaded: typeof KoaBodyModule | undefined;
function koaBodyModule(): typeof KoaBodyModule {
  koaBodyLoaded ??= createRequire(import.meta.url)('koa-body') as typeof KoaBodyModule;
  return koaBodyLoaded;
}

export interface BodyLimits {
  /** The largest decoded body, in bytes (JSON, form, or multipart fields and files together). */
  maxBytes: number;
  /** Whether a multipart body is read at all (it may carry files, written to disk). */
  multipart: boolean;
}

/** A file of a multipart body, on disk until the request ends. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  path: string;
  size: number;
}

/** Removes what reading the body left on disk; safe to call more than once. */
export type ReleaseBody = () => Promise<void>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MALFORMED = 'message body does not match declared format';
const MAX_FILES = 100;
const MAX_FIELDS = 1000;

function tooLarge(): ApiError {
  return new ApiError(413, { message: '413 Request Entity Too Large' });
}

function malformed(): ApiError {
  return new ApiError(400, { error: MALFORMED });
}

/** The files of a multipart body, by field name. */
export function uploadedFiles(ctx: Koa.Context): Record<string, UploadedFile[]> {
  return (ctx.request as unknown as { files?: Record<string, UploadedFile[]> }).files ?? {};
}

/**
 * Reads the body of `ctx` into `ctx.request.body` (and multipart files into
 * `ctx.request.files`). Throws the 400/413 of a bad body, having removed anything it wrote.
 */
export async function parseBody(ctx: Koa.Context, limits: BodyLimits): Promise<ReleaseBody> {
  const nothing: ReleaseBody = async () => {};
  if (!BODY_METHODS.has(ctx.method)) return nothing;
  if (ctx.is('multipart')) {
    if (!limits.multipart) return nothing;
    const { fields, files, release } = await readMultipart(ctx, limits.maxBytes);
    (ctx.request as unknown as { body: unknown }).body = fields;
    (ctx.request as unknown as { files: unknown }).files = files;
    return release;
  }
  if (!ctx.is('json', 'urlencoded')) return nothing;
  try {
    await jsonAndForm(limits.maxBytes)(ctx, async () => {});
  } catch (err) {
    throw clientError(err);
  }
  return nothing;
}

const parsers = new Map<number, Koa.Middleware>();

/** koa-body for JSON and forms; one per limit (building it validates its options). */
function jsonAndForm(maxBytes: number): Koa.Middleware {
  let parser = parsers.get(maxBytes);
  if (!parser) {
    const { koaBody, HttpMethodEnum } = koaBodyModule();
    parser = koaBody({
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonLimit: maxBytes,
      formLimit: maxBytes,
      queryString: RACK_QUERY,
    }) as unknown as Koa.Middleware;
    parsers.set(maxBytes, parser);
  }
  return parser;
}

/** What a body parser's failure means to the client: 413, an unsupported encoding or charset, or malformed. */
function clientError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { status?: number; type?: string; message?: string };
  if (e.status === 413) return tooLarge();
  if (e.status === 415 && e.message) return new ApiError(400, { error: e.message });
  return malformed();
}

/** The decoder for the request's Content-Encoding (none for identity); 400 for any other. */
function decoderFor(encoding: string): Transform | null {
  switch (encoding.trim().toLowerCase()) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new ApiError(400, { error: `Unsupported Content-Encoding: ${encoding}` });
  }
}

/** Passes bytes through, failing once more than `max` have gone by. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(seen > max ? tooLarge() : null, chunk);
    },
  });
}

interface Multipart {
  fields: Record<string, unknown>;
  files: Record<string, UploadedFile[]>;
  release: ReleaseBody;
}

async function readMultipart(ctx: Koa.Context, maxBytes: number): Promise<Multipart> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw tooLarge();
  const uploads = new UploadFolder();
  try {
    const { pairs, files } = await streamMultipart(ctx.req, maxBytes, uploads);
    const encoded = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    return { fields: qs.parse(encoded, RACK_QUERY), files, release: () => uploads.remove() };
  } catch (err) {
    await uploads.remove();
    throw err;
  }
}

/** The temp folder of one request's files: made at the first file, removed with all it holds. */
class UploadFolder {
  private dir: Promise<string> | null = null;
  private writers: Writable[] = [];
  removed = false;

  async create(): Promise<string> {
    this.dir ??= fsp.mkdtemp(path.join(os.tmpdir(), 'wharf-upload-'));
    return this.dir;
  }

  track(writer: Writable): void {
    this.writers.push(writer);
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    const writers = this.writers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.closed) return resolve();
          w.once('close', () => resolve());
          w.destroy();
        }),
    );
    await Promise.all(writers);
    const dir = await this.dir?.catch(() => null);
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  }
}

interface Streamed {
  pairs: [string, string][];
  files: Record<string, UploadedFile[]>;
}

function streamMultipart(req: Readable & { headers: Record<string, string | string[] | undefined> }, maxBytes: number, uploads: UploadFolder): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const pairs: [string, string][] = [];
    const files: Record<string, UploadedFile[]> = {};
    const writes: Promise<void>[] = [];
    let failed = false;
    let count = 0;

    let parser: busboyModule.Busboy;
    let decoder: Transform | null;
    try {
      decoder = decoderFor(String(req.headers['content-encoding'] ?? ''));
      parser = busboy({
        headers: req.headers as Record<string, string>,
        defParamCharset: 'utf8',
        limits: { fieldSize: maxBytes, fileSize: maxBytes, files: MAX_FILES, fields: MAX_FIELDS },
      });
    } catch (err) {
      // A missing or unusable boundary, or an unknown encoding.
      reject(err instanceof ApiError ? err : malformed());
      return;
    }
    const limit = byteLimit(maxBytes);

    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe();
      decoder?.unpipe();
      limit.unpipe();
      reject(err);
    };
    const tooMany = () => fail(tooLarge());

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail(tooLarge());
      pairs.push([name, value]);
    });
    parser.on('file', (name, stream, info) => {
      if (failed) return void stream.resume();
      const index = count++;
      stream.on('limit', () => fail(tooLarge()));
      stream.on('error', () => fail(malformed())); // a body that ends inside a file
      writes.push(
        uploads.create().then(
          (dir) =>
            new Promise<void>((done, stop) => {
              if (failed || uploads.removed) {
                stream.resume();
                return done();
              }
              const file: UploadedFile = { filename: info.filename ?? '', mimetype: info.mimeType, path: path.join(dir, String(index)), size: 0 };
              const out = fs.createWriteStream(file.path, { flags: 'wx' });
              uploads.track(out);
              stream.on('data', (chunk: Buffer) => {
                file.size += chunk.length;
              });
              stream.pipe(out);
              out.on('error', stop);
              out.on('close', () => {
                (files[name] ??= []).push(file);
                done();
              });
            }),
        ),
      );
    });
    parser.on('filesLimit', tooMany);
    parser.on('fieldsLimit', tooMany);
    parser.on('error', () => fail(malformed()));
    parser.on('close', () => {
      Promise.all(writes).then(
        () => (failed ? undefined : resolve({ pairs, files })),
        (err) => fail(err), // the disk, not the client: a 500
      );
    });
    limit.on('error', fail);
    decoder?.on('error', () => fail(malformed()));
    req.on('error', () => fail(malformed()));

    if (decoder) req.pipe(decoder).pipe(limit).pipe(parser);
    else req.pipe(limit).pipe(parser);
  });
}
