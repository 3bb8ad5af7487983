// Tells what an upload-pack request asks for, for the git metrics: a clone (wants and no
// `have` line), a fetch (it names commits the client has), or, in protocol v2, a ref listing
// (`command=ls-refs`). Reads only the first bytes of each pkt-line as the body streams by.
import type { GitOperation } from '../services/metrics/metrics.js';

const PREFIX = 16;

export class FetchKind {
  private header = '';
  private remaining = 0;
  private prefix = '';
  private sawHave = false;
  private command: string | null = null;

  feed(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - i);
        if (this.prefix.length < PREFIX) this.prefix += chunk.toString('latin1', i, i + Math.min(take, PREFIX - this.prefix.length));
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.packetEnd();
        continue;
      }
      this.header += chunk.toString('latin1', i, i + 1);
      i++;
      if (this.header.length < 4) continue;
      const n = parseInt(this.header, 16);
      this.header = '';
      if (Number.isFinite(n) && n > 4) this.remaining = n - 4;
    }
  }

  private packetEnd(): void {
    if (this.prefix.startsWith('have ')) this.sawHave = true;
    else if (this.command === null && this.prefix.startsWith('command=')) this.command = this.prefix.slice('command='.length).trim();
    this.prefix = '';
  }

  get operation(): GitOperation {
    if (this.command === 'ls-refs') return 'ls_refs';
    return this.sawHave ? 'fetch' : 'clone';
  }
}
