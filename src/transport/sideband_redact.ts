// What `git receive-pack` tells the pushing user goes through side-band channel 2 of its
// output (`remote: …` lines), inside the pkt-line stream, not through its stderr: "cannot lock
// ref 'refs/heads/master': Unable to create '/srv/wharf/repos/group/project.git/./refs/heads/
// master.lock': File exists." showed every client the server's absolute repository path.
// GitLab's clients see only repository-relative paths. This rewrites the messages of channels
// 2 (progress, errors) and 3 (fatal) line by line with `redact`, and passes everything else
// byte for byte: channel 1 (the report-status), flushes, and the whole stream when the client
// did not ask for side-band (git's messages then go to stderr, which spawn.ts redacts).
//
// A line may arrive split across packets and across chunks (plain side-band packets carry at
// most 1000 bytes), so channel-2/3 text is held until its line ends (`\n` or `\r`) or other
// output comes; the rewritten text is framed again in packets no larger than the original's.
import { MAX_PKT } from './pktline.js';

const MAX_SIDEBAND_PAYLOAD = 1000 - 5; // fits every client's side-band (`side-band` is 1000)

export class SidebandRedactor {
  private buf: Buffer = Buffer.alloc(0);
  private pending = new Map<number, Buffer>();

  constructor(private readonly redact: (text: string) => string) {}

  /** Feeds output; returns what may go to the client now. */
  feed(chunk: Buffer): Buffer {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    let at = 0;
    while (this.buf.length - at >= 4) {
      const hex = this.buf.toString('latin1', at, at + 4);
      const len = /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : -1;
      if (len < 0 || len > MAX_PKT || (len > 0 && len < 4)) {
        // Not a pkt-line stream after all: hand the rest over untouched.
        out.push(this.drainText(), this.buf.subarray(at));
        this.buf = Buffer.alloc(0);
        return Buffer.concat(out);
      }
      const size = len === 0 || len < 4 ? 4 : len;
      if (this.buf.length - at < size) break;
      const packet = this.buf.subarray(at, at + size);
      at += size;
      const band = size > 4 ? packet[4] : 0;
      if (band === 2 || band === 3) {
        out.push(this.text(band, packet.subarray(5)));
      } else {
        out.push(this.drainText(), packet);
      }
    }
    this.buf = this.buf.subarray(at);
    return Buffer.concat(out);
  }

  /** What is left at the end of the output. */
  end(): Buffer {
    const rest = Buffer.concat([this.drainText(), this.buf]);
    this.buf = Buffer.alloc(0);
    return rest;
  }

  /** Line ends are single bytes that never occur inside a UTF-8 sequence: cut there, decode whole lines. */
  private text(band: number, bytes: Buffer): Buffer {
    const held = this.pending.get(band);
    const all = held?.length ? Buffer.concat([held, bytes]) : bytes;
    const cut = Math.max(all.lastIndexOf(0x0a), all.lastIndexOf(0x0d)) + 1;
    this.pending.set(band, Buffer.from(all.subarray(cut)));
    return this.frame(band, all.subarray(0, cut));
  }

  private drainText(): Buffer {
    const out: Buffer[] = [];
    for (const [band, bytes] of this.pending) if (bytes.length) out.push(this.frame(band, bytes));
    this.pending.clear();
    return Buffer.concat(out);
  }

  private frame(band: number, raw: Buffer): Buffer {
    if (!raw.length) return Buffer.alloc(0);
    const bytes = Buffer.from(this.redact(raw.toString('utf8')), 'utf8');
    const out: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += MAX_SIDEBAND_PAYLOAD) {
      const part = bytes.subarray(i, i + MAX_SIDEBAND_PAYLOAD);
      const header = Buffer.from((part.length + 5).toString(16).padStart(4, '0'), 'ascii');
      out.push(header, Buffer.from([band]), part);
    }
    return Buffer.concat(out);
  }
}

/** Whether the client asked receive-pack for side-band output. */
export function wantsSideband(capabilities: string[]): boolean {
  return capabilities.includes('side-band-64k') || capabilities.includes('side-band');
}
