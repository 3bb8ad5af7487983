// git's pkt-line framing: four hex digits giving the length (header included), then the
// payload; `0000` flush, `0001` delimiter and `0002` response-end (protocol v2) carry none.
// Wharf reads only what it must decide on (the command list at the head of a push) and
// checks the framing of fetch requests; the packs themselves go to git untouched.

export const MAX_PKT = 65520;

export class PktLineError extends Error {}

/** One data pkt-line. */
export function pkt(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  if (body.length + 4 > MAX_PKT) throw new Error('pkt-line too long');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body]);
}

export const FLUSH = Buffer.from('0000', 'ascii');

/** The length announced by the header at `buf[at..at+4]`; throws on anything but 4 hex digits. */
function headerLength(buf: Buffer, at: number): number {
  const hex = buf.toString('latin1', at, at + 4);
  if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PktLineError('bad pkt-line length header');
  const n = parseInt(hex, 16);
  if ((n > 2 && n < 4) || n > MAX_PKT) throw new PktLineError(`bad pkt-line length ${n}`);
  return n;
}

/**
 * Checks the framing of a stream that is pkt-lines from end to end (upload-pack requests,
 * protocol v0 and v2) chunk by chunk, keeping at most one header's worth of state.
 */
export class PktFramingChecker {
  /** Bytes of the current packet still to skip. */
  private remaining = 0;
  private header: Buffer = Buffer.alloc(0);
  /** Complete packets seen so far. */
  packets = 0;

  feed(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - i);
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.packets++;
        continue;
      }
      const need = 4 - this.header.length;
      this.header = Buffer.concat([this.header, chunk.subarray(i, i + need)]);
      i += Math.min(need, chunk.length - i);
      if (this.header.length < 4) return;
      const n = headerLength(this.header, 0);
      this.header = Buffer.alloc(0);
      if (n <= 4) this.packets++;
      else this.remaining = n - 4;
    }
  }

  /** Throws when the stream stopped inside a packet. */
  end(): void {
    if (this.remaining > 0 || this.header.length > 0) throw new PktLineError('truncated pkt-line');
  }
}

const ZERO_OID = /^0+$/;

export interface RefCommand {
  oldOid: string;
  newOid: string;
  ref: string;
}

export interface CommandList {
  commands: RefCommand[];
  capabilities: string[];
  /** Bytes of the request that make up the list, shallow lines and final flush included. */
  length: number;
}

const COMMAND = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (\S+)$/;
const SHALLOW = /^shallow ([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Reads the update requests at the head of a receive-pack request, `*shallow` then the
 * commands up to a flush, chunk by chunk: `feed` answers null until the list is complete.
 * Throws PktLineError for anything git itself would reject as a protocol error. Push
 * certificates are refused: Wharf does not advertise `push-cert`.
 */
export class CommandListReader {
  private pending: Buffer = Buffer.alloc(0);
  private consumed = 0;
  private readonly commands: RefCommand[] = [];
  private capabilities: string[] = [];

  feed(chunk: Buffer): CommandList | null {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    try {
      for (;;) {
        if (this.pending.length < at + 4) return null;
        const n = headerLength(this.pending, at);
        if (n === 0) {
          at += 4;
          return { commands: this.commands, capabilities: this.capabilities, length: this.consumed + at };
        }
        if (n < 4) throw new PktLineError('unexpected delimiter in command list');
        if (this.pending.length < at + n) return null;
        this.line(this.pending.toString('utf8', at + 4, at + n));
        at += n;
      }
    } finally {
      this.consumed += at;
      this.pending = this.pending.subarray(at);
    }
  }

  private line(text: string): void {
    let line = text.endsWith('\n') ? text.slice(0, -1) : text;
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      if (this.commands.length > 0) throw new PktLineError('capabilities after the first command');
      this.capabilities = line
        .slice(nul + 1)
        .split(' ')
        .filter(Boolean);
      line = line.slice(0, nul);
    }
    if (this.commands.length === 0 && nul < 0 && SHALLOW.test(line)) return;
    const m = COMMAND.exec(line);
    if (!m) throw new PktLineError(line.startsWith('push-cert') ? 'push certificates are not supported' : 'malformed ref update command');
    this.commands.push({ oldOid: m[1], newOid: m[2], ref: m[3] });
  }
}

export function isZero(oid: string): boolean {
  return ZERO_OID.test(oid);
}
