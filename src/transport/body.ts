// The request body of a git POST: decoded (git gzips large fetch negotiations), and its head
// read far enough for Wharf to decide before git starts, the rest left in the stream.
import type http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { BadRequestBody } from './spawn.js';
import { PktLineError } from './pktline.js';

export class UnsupportedEncoding extends Error {}

/** The body as a stream of its decoded bytes; errors on the socket or in gzip surface on it. */
export function decodedBody(req: http.IncomingMessage): Readable {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw new UnsupportedEncoding(`Unsupported Content-Encoding: ${encoding}`);
  }
  // A listener at all times: an aborted upload between two readers must not crash the
  // process. The error stays on the stream (`errored`) for the next reader to see.
  req.on('error', () => {});
  if (encoding === '' || encoding === 'identity') return req;
  const gunzip = zlib.createGunzip();
  gunzip.on('error', () => req.resume()); // drain what the client still sends
  req.on('error', (err) => gunzip.destroy(new BadRequestBody(`Malformed git request: ${err.message}`)));
  req.on('close', () => {
    if (!req.complete) gunzip.destroy(new BadRequestBody('Malformed git request: the request body ended early'));
  });
  return req.pipe(gunzip);
}

/**
 * Reads chunks until `parse` (a stateful reader given each chunk) returns a value; the
 * stream is then paused with the rest unread. Malformed, truncated or oversized heads
 * reject with BadRequestBody, whose message is the 400's body.
 */
export function readHead<T>(stream: Readable, parse: (chunk: Buffer) => T | null, limit: number): Promise<{ value: T; head: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err: Error | null, value?: T) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      stream.pause();
      if (err) reject(err);
      else resolve({ value: value as T, head: Buffer.concat(chunks, size) });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      let value: T | null;
      try {
        value = parse(chunk);
      } catch (err) {
        const message = err instanceof PktLineError ? `Malformed git request: ${err.message}` : String((err as Error).message);
        return done(new BadRequestBody(message));
      }
      if (value !== null) return done(null, value);
      if (size > limit) done(new BadRequestBody('Malformed git request: the ref update list is too long'));
    };
    const onEnd = () => done(new BadRequestBody('Malformed git request: the request body ended early'));
    const onError = (err: Error) => done(err instanceof BadRequestBody ? err : new BadRequestBody(`Malformed git request: ${err.message}`));
    stream.on('data', onData);
    const onClose = () => {
      if (!stream.readableEnded) onEnd(); // the client went away mid-body
    };
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
