// Ways for a test to watch and steer CI jobs that run in the built-in runner's sandbox, which
// shows a job nothing of the host's files: the host's processes (by uid or command line),
// and a gate on a loopback port that a job waits at until the test opens it.
import fs from 'node:fs';
import net from 'node:net';
import { freePort } from './free_port.js';

/** Host pids of processes whose uid is `uid`, or whose command line includes `marker`. */
export function hostProcesses(match: { uid?: number; marker?: string }): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (match.uid !== undefined && fs.statSync(`/proc/${entry}`).uid === match.uid) found.push(Number(entry));
      else if (match.marker && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(match.marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export interface Gate {
  /** A bash line that waits (up to a minute) until the gate opens. */
  waitLine: string;
  open(): Promise<void>;
  close(): Promise<void>;
}

export async function portGate(): Promise<Gate> {
  const port = await freePort();
  let server: net.Server | null = null;
  return {
    waitLine: `for i in $(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.1; done`,
    async open() {
      server = net.createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', () => resolve()));
    },
    async close() {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}
