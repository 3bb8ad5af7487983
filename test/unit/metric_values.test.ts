// services/metrics/values.ts keeps the values of Wharf's own metrics until prom-client is
// loaded (first scrape); once registered in prom-client's registry they must read exactly as
// prom-client's own Counter, Gauge and Histogram would after the same calls.
import { expect } from 'chai';
import client from 'prom-client';
import { Counter, Gauge, Histogram } from '../../src/services/metrics/values.js';

const LABELS = ['method', 'route'] as const;
const AWKWARD = 'a "quoted"\\ back\nslash';

async function exposition(metric: unknown): Promise<string> {
  const r = new client.Registry();
  r.registerMetric(metric as client.Metric);
  return r.metrics();
}

describe('metric values read by prom-client', () => {
  it('a counter reads as prom-client counts, label values escaped', async () => {
    const own = new Counter({ name: 'c_total', help: 'Counted', labelNames: LABELS });
    const theirs = new client.Counter({ name: 'c_total', help: 'Counted', labelNames: LABELS, registers: [] });
    for (const [labels, by] of [
      [{ method: 'GET', route: '/a' }, 1],
      [{ method: 'GET', route: AWKWARD }, 2],
      [{ method: 'GET', route: '/a' }, 3],
    ] as const) {
      own.inc(labels, by);
      theirs.inc(labels, by);
    }
    expect(await exposition(own)).to.equal(await exposition(theirs));
    expect(await exposition(own)).to.contain('c_total{method="GET",route="/a"} 4');
  });

  it("a histogram reads as prom-client's: cumulative buckets, +Inf, sum and count", async () => {
    const buckets = [0.01, 0.1, 1];
    const own = new Histogram({ name: 'h_seconds', help: 'Timed', labelNames: LABELS }, buckets);
    const theirs = new client.Histogram({ name: 'h_seconds', help: 'Timed', labelNames: LABELS, buckets, registers: [] });
    for (const [route, v] of [
      ['/a', 0.01],
      ['/a', 0.5],
      ['/a', 7],
      ['/b', 0.001],
      [AWKWARD, 1],
    ] as const) {
      own.observe({ method: 'POST', route }, v);
      theirs.observe({ method: 'POST', route }, v);
    }
    expect(await exposition(own)).to.equal(await exposition(theirs));
    expect(await exposition(own)).to.contain('h_seconds_bucket{le="0.01",method="POST",route="/a"} 1');
  });

  it('a gauge sets, collects before each reading and resets', async () => {
    let reads = 0;
    const own = new Gauge({ name: 'g', help: 'Gauged', labelNames: ['state'] as const }, (g) => g.set({ state: 'used' }, ++reads));
    const theirs = new client.Gauge({ name: 'g', help: 'Gauged', labelNames: ['state'] as const, registers: [] });
    own.set({ state: 'free' }, 5);
    theirs.set({ state: 'free' }, 5);
    theirs.set({ state: 'used' }, 1);
    expect(await exposition(own)).to.equal(await exposition(theirs));
    own.reset();
    expect(await exposition(own)).to.equal('# HELP g Gauged\n# TYPE g gauge\ng{state="used"} 2\n');
  });
});
