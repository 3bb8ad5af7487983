// The rewriting of receive-pack's side-band messages (transport/sideband_redact.ts): server
// paths leave channels 2 and 3 even when a line is split across packets and chunks, and
// everything else passes byte for byte.
import { expect } from 'chai';
import { SidebandRedactor } from '../../src/transport/sideband_redact.js';
import { redactPaths } from '../../src/transport/router.js';

function band(n: number, text: string | Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([n]), Buffer.from(text)]);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

/** Decodes a side-band stream into its channels' contents. */
function channels(stream: Buffer): Record<number, string> {
  const out: Record<number, string> = {};
  for (let at = 0; at < stream.length;) {
    const len = parseInt(stream.toString('latin1', at, at + 4), 16);
    if (len === 0) {
      at += 4;
      continue;
    }
    out[stream[at + 4]] = (out[stream[at + 4]] ?? '') + stream.subarray(at + 5, at + len).toString('utf8');
    at += len;
  }
  return out;
}

describe('side-band message redaction', () => {
  const gitdir = '/srv/wharf/repos/grüppe/project.git';
  const redact = (t: string) => redactPaths(t, gitdir, 'grüppe/project', '/srv/wharf/repos');
  const report = Buffer.concat([Buffer.from('000eunpack ok\n'), Buffer.from('0000')]);

  it('removes the repository path from a message split across packets and chunks, keeping channel 1 intact', () => {
    const message = `error: cannot lock ref 'refs/heads/master': Unable to create '${gitdir}/./refs/heads/master.lock': File exists.\n`;
    const bytes = Buffer.from(message);
    const stream = Buffer.concat([band(2, bytes.subarray(0, 50)), band(2, bytes.subarray(50, 71)), band(2, bytes.subarray(71)), band(1, report), Buffer.from('0000')]);
    const r = new SidebandRedactor(redact);
    const out = Buffer.concat([...Array.from({ length: Math.ceil(stream.length / 7) }, (_, i) => r.feed(stream.subarray(i * 7, i * 7 + 7))), r.end()]);
    const c = channels(out);
    expect(c[2]).to.equal("error: cannot lock ref 'refs/heads/master': Unable to create 'refs/heads/master.lock': File exists.\n");
    expect(c[1]).to.equal(report.toString());
    expect(out.toString('latin1')).to.not.contain('/srv/wharf');
  });

  it('passes a stream without side-band, and text without paths, unchanged', () => {
    const r = new SidebandRedactor(redact);
    const plain = Buffer.from('0030unpack ok\nok refs/heads/master\n0000');
    expect(Buffer.concat([r.feed(plain), r.end()])).to.deep.equal(plain);
    const s = new SidebandRedactor(redact);
    const progress = Buffer.concat([band(2, 'Resolving deltas: 100% (3/3)\r'), band(2, 'done.\n'), Buffer.from('0000')]);
    expect(Buffer.concat([s.feed(progress), s.end()])).to.deep.equal(progress);
  });

  it('names the repository by its project path when git names the folder itself', () => {
    expect(redact(`fatal: '${gitdir}' does not appear to be a git repository`)).to.equal("fatal: 'grüppe/project.git' does not appear to be a git repository");
    expect(redact('fatal: /srv/wharf/repos/other/thing.git: gone')).to.equal('fatal: other/thing.git: gone');
  });
});
