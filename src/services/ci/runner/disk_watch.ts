// A CI job's files on disk bounded as a whole (WHARF_RUNNER_DISK_MB), as a docker executor's
// `storage-opt size` bounds a job's container: while the job runs, `du` measures its checkout
// and home every few seconds (one measurement at a time, each with a time limit), and the job
// is stopped once they pass the limit. RLIMIT_FSIZE (sandbox.ts) already stops any single file
// at the limit; this stops many files.
import { execFile } from 'node:child_process';

const DISK_CHECK_MS = 3000;

function usedBytes(dirs: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    execFile('du', ['-s', '-x', '-B1', '--', ...dirs], { timeout: 30_000, maxBuffer: 1 << 20 }, (err, stdout) => {
      // du exits 1 when a file vanished while it counted: what it printed is still a measurement.
      if (err && !stdout) return resolve(null);
      let total = 0;
      for (const line of stdout.split('\n')) if (line) total += Number(line.split('\t')[0]) || 0;
      resolve(total);
    });
  });
}

/** Calls `onOver` once when `dirs` hold more than `limitBytes`; answers the stop of the watch. */
export function watchDisk(dirs: string[], limitBytes: number, onOver: () => void, everyMs = DISK_CHECK_MS): () => void {
  let measuring = false;
  let done = false;
  const timer = setInterval(() => {
    if (measuring || done) return;
    measuring = true;
    void usedBytes(dirs).then((used) => {
      measuring = false;
      if (!done && used !== null && used > limitBytes) {
        done = true;
        onOver();
      }
    });
  }, everyMs);
  timer.unref();
  return () => {
    done = true;
    clearInterval(timer);
  };
}
