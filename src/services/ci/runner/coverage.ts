// GitLab's coverage parsing (Ci::Build#parse_trace_coverage): the job's `coverage` regex is run
// over the trace, the last match kept, and the first number in it is the coverage. The regex
// is the user's and the trace is up to 4 MB, so it runs in a worker thread that is terminated
// after a time limit: a backtracking pattern costs that thread, never the event loop.
import { Worker } from 'node:worker_threads';

const COVERAGE_TIMEOUT_MS = 2000;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let result = null;
try {
  const re = new RegExp(workerData.pattern, 'g');
  let last = null;
  let m;
  while ((m = re.exec(workerData.text)) !== null) {
    last = m[0];
    if (m[0].length === 0) re.lastIndex++;
  }
  if (last !== null) {
    const n = /\\d+(\\.\\d+)?/.exec(last);
    if (n) result = Number(n[0]);
  }
} catch (e) {
  result = null;
}
parentPort.postMessage(result);
`;

/** The coverage the regex finds in the trace, or null (no match, invalid, or too slow). */
export function parseCoverage(pattern: string, text: string, timeoutMs = COVERAGE_TIMEOUT_MS): Promise<number | null> {
  return new Promise((resolve) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { pattern, text }, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(null);
    }, timeoutMs);
    worker.once('message', (value: number | null) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(typeof value === 'number' && Number.isFinite(value) ? value : null);
    });
    worker.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}
