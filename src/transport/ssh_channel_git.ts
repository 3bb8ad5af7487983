// Running one git command for one SSH channel: the channel's data goes to git's stdin, git's
// stdout to the channel and its stderr to the channel's stderr (server paths removed), each
// with backpressure, so no pack ever sits in memory. Unlike smart HTTP, git runs stateful
// here (no --stateless-rpc): the whole conversation is one process, as with sshd and
// gitlab-shell.
//
// A push needs Wharf to read its command list before git does (the per-ref checks are
// written for the hook first): `takeHead` gets the channel before git sees any of its input
// and answers the bytes it consumed, which git is then given ahead of the rest.
//
// Ending, as on HTTP (spawn.ts): a client that goes away stops a fetch at once; a push is
// left to finish (its stdin ends, so git drops an incomplete pack, and a complete one still
// lands with its after-push work). A process silent both ways for `idleMs` is stopped, SIGTERM
// first (git removes its lock files), SIGKILL if it lingers. The exit status is git's.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { ServerChannel } from 'ssh2';
import { processGroupWatchdog } from './process_watchdog.js';

/** Rewrites git's output on its way to the client (receive-pack's side-band messages). */
interface OutputRewrite {
  feed(chunk: Buffer): Buffer;
  end(): Buffer;
}

export interface ChannelGitRun {
  args: string[];
  env: NodeJS.ProcessEnv;
  channel: ServerChannel;
  redact: (text: string) => string;
  killOnDisconnect: boolean;
  /** Reads the head of the client's input before git gets any; may set an output rewrite. */
  takeHead?: (input: Readable) => Promise<{ head: Buffer; rewrite?: OutputRewrite }>;
  /** Runs after git exited and before the exit status is sent (post-push work). */
  afterExit?: (code: number | null) => Promise<void>;
  idleMs?: number;
}

/** Redacts stderr line by line, holding a partial line until it ends. */
class StderrLines {
  private held = '';
  constructor(private readonly redact: (text: string) => string) {}
  feed(chunk: Buffer): string {
    const all = this.held + chunk.toString('utf8');
    const cut = Math.max(all.lastIndexOf('\n'), all.lastIndexOf('\r')) + 1;
    this.held = all.slice(cut);
    if (this.held.length > 4096) return this.end(); // no line is that long: let it through
    return cut ? this.redact(all.slice(0, cut)) : '';
  }
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest ? this.redact(rest) : '';
  }
}

/** Runs git on the channel; resolves with git's exit code once the channel has it. */
export function runGitOnChannel(run: ChannelGitRun): Promise<number> {
  const { channel } = run;
  return new Promise((resolve) => {
    // Its own process group: stopping it also stops pack-objects, index-pack and hooks.
    const child = spawn('git', run.args, { env: run.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const stdin = child.stdin!;
    const stdout = child.stdout!;
    const stderr = new StderrLines(run.redact);
    let rewrite: OutputRewrite | undefined;
    let clientGone = false;
    let settled = false;
    let failure = '';

    const watchdog = processGroupWatchdog(child, run.idleMs);
    const { stop, touch } = watchdog;
    const send = (chunk: Buffer) => {
      if (clientGone || !chunk.length) return;
      if (!channel.write(chunk)) {
        stdout.pause();
        channel.once('drain', () => stdout.resume());
      }
    };
    const sendError = (text: string) => {
      if (!clientGone && text) channel.stderr.write(text);
    };
    touch();

    stdin.on('error', () => {}); // EPIPE: git stopped reading (it answered or failed)
    stdout.on('data', (chunk: Buffer) => {
      touch();
      send(rewrite ? rewrite.feed(chunk) : chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => sendError(stderr.feed(chunk)));
    channel.on('data', touch);
    channel.on('close', () => {
      clientGone = true;
      stdout.resume(); // keep draining: a push's git must not block on a full pipe
      if (run.killOnDisconnect) stop();
      else if (!stdin.writableEnded) stdin.end(); // EOF: git finishes or drops what it has
    });

    const feedGit = (head: Buffer) => {
      if (head.length) stdin.write(head);
      channel.pipe(stdin);
    };
    if (run.takeHead) {
      run.takeHead(channel).then(
        ({ head, rewrite: r }) => {
          rewrite = r;
          feedGit(head);
        },
        (err: Error) => {
          failure = `GitLab: ${err.message}\n`;
          stop();
        },
      );
    } else {
      feedGit(Buffer.alloc(0));
    }

    const finish = async (code: number | null) => {
      if (settled) return;
      settled = true;
      watchdog.dispose();
      if (rewrite) send(rewrite.end());
      sendError(stderr.end() + failure);
      const status = failure ? 1 : (code ?? 1);
      try {
        await run.afterExit?.(code);
      } finally {
        if (!clientGone) {
          channel.exit(status);
          channel.end();
        }
        resolve(status);
      }
    };
    child.on('error', () => {
      failure ||= 'GitLab: Failed to run git\n';
      void finish(null);
    });
    child.on('close', (code) => void finish(code));
  });
}
