// `/-/metrics` for the whole server when WHARF_WORKERS > 1, as prom-client's cluster mode
// (AggregatorRegistry) does it: the worker that is scraped asks the primary, the primary asks
// every worker for its metrics (prom-client's JSON form), and the scraped worker merges them
// with each metric's aggregator (counters and histograms summed; gauges summed unless they say
// otherwise, e.g. the queue's backlog, which every worker reads from the same database, keeps
// the largest; Node's own: version `first`, start time left out, event-loop lag averaged). So
// one scrape counts every request the server answered, whichever worker answered it. A worker
// that does not answer within COLLECT_TIMEOUT_MS is left out of that scrape. The primary only
// passes messages along: it loads no metrics library.
import cluster, { type Worker } from 'node:cluster';

const COLLECT_TIMEOUT_MS = 2000;

type Message =
  | { wharf: 'metrics-request'; id: string }
  | { wharf: 'metrics-collect'; id: string }
  | { wharf: 'metrics-reply'; id: string; metrics: unknown }
  | { wharf: 'metrics-result'; id: string; parts: unknown[] };

function isMessage(m: unknown): m is Message {
  return typeof m === 'object' && m !== null && typeof (m as { wharf?: unknown }).wharf === 'string' && String((m as { wharf: string }).wharf).startsWith('metrics-');
}

interface Collection {
  asker: Worker;
  parts: unknown[];
  waiting: Set<Worker>;
  timer: NodeJS.Timeout;
}

/** In the primary: relays a scrape to every worker and their answers back. */
export class MetricsRelay {
  private readonly pending = new Map<string, Collection>();

  constructor(private readonly workers: () => Worker[]) {}

  /** Handles a worker's metrics message; false for any other message. */
  onMessage(from: Worker, message: unknown): boolean {
    if (!isMessage(message)) return false;
    if (message.wharf === 'metrics-request') this.collect(from, message.id);
    else if (message.wharf === 'metrics-reply') this.receive(from, message.id, message.metrics);
    return true;
  }

  /** A worker gone meanwhile is not waited for. */
  forget(worker: Worker): void {
    for (const [id, c] of this.pending) {
      if (c.waiting.delete(worker) && !c.waiting.size) this.finish(id);
    }
  }

  private collect(asker: Worker, id: string): void {
    const workers = this.workers().filter((w) => w.isConnected());
    const timer = setTimeout(() => this.finish(id), COLLECT_TIMEOUT_MS);
    timer.unref();
    this.pending.set(id, { asker, parts: [], waiting: new Set(workers), timer });
    for (const w of workers) w.send({ wharf: 'metrics-collect', id } satisfies Message);
    if (!workers.length) this.finish(id);
  }

  private receive(from: Worker, id: string, metrics: unknown): void {
    const c = this.pending.get(id);
    if (!c || !c.waiting.delete(from)) return;
    c.parts.push(metrics);
    if (!c.waiting.size) this.finish(id);
  }

  private finish(id: string): void {
    const c = this.pending.get(id);
    if (!c) return;
    this.pending.delete(id);
    clearTimeout(c.timer);
    if (c.asker.isConnected()) c.asker.send({ wharf: 'metrics-result', id, parts: c.parts } satisfies Message);
  }
}

/** In a worker: answers the primary's collections with `readJson` (this process's metrics). */
export function answerCollections(readJson: () => Promise<unknown>): void {
  if (!cluster.isWorker) return;
  process.on('message', (message: unknown) => {
    if (!isMessage(message) || message.wharf !== 'metrics-collect') return;
    void readJson().then(
      (metrics) => process.send?.({ wharf: 'metrics-reply', id: message.id, metrics } satisfies Message),
      () => process.send?.({ wharf: 'metrics-reply', id: message.id, metrics: [] } satisfies Message),
    );
  });
}

let sequence = 0;

/** In a worker: every worker's metrics (this one's included), as the primary gathered them. */
export function gatherFromWorkers(): Promise<unknown[]> {
  const id = `${process.pid}:${++sequence}`;
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (!isMessage(message) || message.wharf !== 'metrics-result' || message.id !== id) return;
      process.off('message', onMessage);
      clearTimeout(timer);
      resolve(message.parts);
    };
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      resolve([]);
    }, COLLECT_TIMEOUT_MS * 2);
    process.on('message', onMessage);
    process.send?.({ wharf: 'metrics-request', id } satisfies Message);
  });
}

export function inCluster(): boolean {
  return cluster.isWorker;
}
