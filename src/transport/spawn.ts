// Running one git service process for one HTTP request, streaming both ways: the request
// body goes to the child's stdin and its stdout to the response, with backpressure, so a
// 200 MB push or clone never sits in memory. The response is committed (200 and headers) on
// the first byte the child writes, which lets a request found malformed before that still
// get a clean 400. A child that fails without output answers git's own `ERR` packet, which
// the client prints as `remote error: …` (never a 500: the status is already git's channel).
//
// Ending: a client that goes away stops a fetch at once (SIGTERM); a push is left to finish
// (its stdin ends, so git drops an incomplete pack itself, and a complete one still lands,
// with the post-push work done). A process silent both ways for `idleMs` is stopped:
// SIGTERM first, which git handles by removing its lock files, SIGKILL only if it lingers.
import { spawn } from 'node:child_process';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { pkt } from './pktline.js';
import { processGroupWatchdog } from './process_watchdog.js';

const STDERR_KEEP = 4096;

/** Request bodies git would reject: answered 400 when nothing was sent back yet. */
export class BadRequestBody extends Error {}

export interface ServiceRun {
  command?: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The request body, decoded; null for the advertisement. */
  input: Readable | null;
  /** Bytes already taken from `input` (the head Wharf parsed), written to the child first. */
  head?: Buffer;
  /** Inspects each later chunk of input; throws BadRequestBody to stop the request. */
  inspect?: { feed(chunk: Buffer): void; end(): void };
  res: http.ServerResponse;
  headers: Record<string, string>;
  /** Written before the child's output (the `# service=` lines of an advertisement). */
  prefix?: Buffer;
  /** Stop the child when the client goes away (fetches: nothing of theirs to finish). */
  killOnDisconnect: boolean;
  idleMs?: number;
  /** Runs after the child exited and before the response ends (post-push work). */
  beforeEnd?: (code: number | null) => Promise<void>;
  /** Makes git's stderr fit to show a client (server paths removed). */
  redact: (text: string) => string;
  /** Rewrites the child's output on its way to the client (receive-pack's side-band messages). */
  rewrite?: { feed(chunk: Buffer): Buffer; end(): Buffer };
}

export interface ServiceResult {
  code: number | null;
  /** The status sent. */
  status: number;
  clientGone: boolean;
  stderr: string;
  /** Request body bytes given to git, and response bytes written (for the metrics). */
  bytesIn: number;
  bytesOut: number;
}

export function runService(run: ServiceRun): Promise<ServiceResult> {
  const { res } = run;
  return new Promise((resolve) => {
    // Its own process group, so that stopping it also stops what it started (pack-objects,
    // index-pack, hooks), which would otherwise hold the pipes open.
    const child = spawn(run.command ?? 'git', run.args, {
      env: run.env,
      stdio: [run.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let committed = false;
    let clientGone = false;
    let badInput: Error | null = null;
    let stderr = '';
    let bytesIn = run.head?.length ?? 0;
    let bytesOut = 0;
    let settled = false;
    const stdout = child.stdout!;
    const stderrStream = child.stderr!;

    const watchdog = processGroupWatchdog(child, run.idleMs);
    const { stop, touch } = watchdog;
    const commit = (status: number, headers: Record<string, string>) => {
      committed = true;
      if (clientGone) return;
      res.writeHead(status, headers);
    };
    const write = (chunk: Buffer) => {
      if (clientGone) return;
      bytesOut += chunk.length;
      if (!res.write(chunk)) {
        stdout.pause();
        res.once('drain', () => stdout.resume());
      }
    };
    touch();

    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      stdout.resume(); // keep draining: a push's git must not block on a full pipe
      if (run.killOnDisconnect) stop();
    });

    stderrStream.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    stdout.on('data', (chunk: Buffer) => {
      touch();
      if (!committed) {
        commit(200, run.headers);
        if (run.prefix) write(run.prefix);
      }
      const out = run.rewrite ? run.rewrite.feed(chunk) : chunk;
      if (out.length) write(out);
    });

    if (run.input && child.stdin) {
      const stdin = child.stdin;
      stdin.on('error', () => {}); // EPIPE: the child stopped reading (it answered or failed)
      const input = run.input;
      const fail = (err: Error) => {
        if (!badInput) badInput = err instanceof BadRequestBody ? err : new BadRequestBody(`Malformed git request: ${err.message}`);
        input.unpipe(stdin);
        stdin.destroy(); // EOF for git: it drops whatever it had not finished
      };
      const ended = () => {
        try {
          run.inspect?.end();
        } catch (err) {
          fail(err as Error);
        }
      };
      if (run.head?.length) stdin.write(run.head);
      // The body may have ended, or failed, while Wharf was deciding on its head.
      if (input.errored) fail(input.errored);
      else if (input.readableEnded) {
        ended();
        if (!badInput) stdin.end();
      } else {
        input.on('data', (chunk: Buffer) => {
          touch();
          bytesIn += chunk.length;
          try {
            run.inspect?.feed(chunk);
          } catch (err) {
            fail(err as Error);
          }
        });
        input.on('end', ended);
        input.on('error', fail);
        input.on('close', () => {
          if (!input.readableEnded) fail(new BadRequestBody('Malformed git request: the request body ended early'));
        });
        input.pipe(stdin);
      }
    }

    const finish = async (code: number | null) => {
      if (settled) return;
      settled = true;
      watchdog.dispose();
      let status = 200;
      if (!committed) {
        if (badInput) {
          status = 400;
          commit(400, { 'Content-Type': 'text/plain; charset=utf-8' });
          write(Buffer.from(`${badInput.message}\n`));
        } else {
          commit(200, run.headers);
          if (run.prefix && code === 0) write(run.prefix);
          if (code !== 0) write(pkt(`ERR ${errorLine(run.redact(stderr))}\n`));
        }
      } else if (run.rewrite) {
        const rest = run.rewrite.end();
        if (rest.length) write(rest);
      }
      try {
        await run.beforeEnd?.(code);
      } finally {
        if (!clientGone) res.end();
        resolve({ code, status, clientGone, stderr, bytesIn, bytesOut });
      }
    };
    child.on('error', (err) => {
      stderr += `${err.message}\n`;
      void finish(null);
    });
    child.on('close', (code) => void finish(code));
  });
}

/** The line of git's stderr worth showing: its last `fatal:`/`error:` line, or a generic one. */
function errorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const last = [...lines].reverse().find((l) => /^(fatal|error):/.test(l));
  return (last ?? 'the git process failed').slice(0, 400);
}
