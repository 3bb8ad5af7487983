// A job's trace, streamed to its file as the job prints, capped as GitLab Runner caps it
// (output_limit, 4 MB by default): past the cap one line says the log was cut and the rest is
// dropped while the job keeps running (GitLab's behaviour; the job's timeout still bounds it).
import fs from 'node:fs';
import path from 'node:path';

const TRACE_LIMIT_BYTES = 4 * 1024 * 1024;

function truncationLine(limit: number): string {
  return `\nJob's log exceeded limit of ${limit} bytes.\nJob execution will continue but no more output will be collected.\n`;
}

export class TraceWriter {
  private written = 0;
  private cut = false;
  private readonly fd: number;

  constructor(
    readonly file: string,
    readonly limit = TRACE_LIMIT_BYTES,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'w');
  }

  get truncated(): boolean {
    return this.cut;
  }

  write(chunk: Buffer | string): void {
    if (this.cut) return;
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const room = this.limit - this.written;
    if (data.length <= room) {
      fs.writeSync(this.fd, data);
      this.written += data.length;
      return;
    }
    if (room > 0) fs.writeSync(this.fd, data.subarray(0, room));
    this.written = this.limit;
    this.cut = true;
    fs.writeSync(this.fd, truncationLine(this.limit));
  }

  /** A line of the runner's own (always written, even past the cap: it is short). */
  note(line: string): void {
    fs.writeSync(this.fd, `${line}\n`);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** The stored trace, or '' when the job has none yet. */
export async function readTrace(file: string): Promise<Buffer> {
  try {
    return await fs.promises.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw err;
  }
}
