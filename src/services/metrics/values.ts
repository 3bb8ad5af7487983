// Counters, gauges and histograms that only keep values, for services/metrics/metrics.ts. They record
// from the first request on, while prom-client itself, which costs an idle process several MB
// (an idle server stays under 80 MB), is loaded on the first scrape of `/-/metrics`; then its registry
// formats them with its own metrics: each one answers `get()` with the object prom-client's
// own metrics answer (name, help, type, and one value per series; a histogram's series are its
// `_bucket` lines with `le`, its `_sum` and its `_count`), which `Registry.registerMetric`
// accepts and `Registry.metrics()` writes out, escaping label values as it does for its own.

type Labels<L extends string> = Record<L, string>;

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** How prom-client's cluster aggregation merges a metric of several processes. */
type Aggregator = 'sum' | 'max' | 'min' | 'first' | 'average' | 'omit';

/** What prom-client's Registry reads of a metric. */
export interface MetricReading {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  values: Sample[];
  aggregator: Aggregator;
}

interface Definition<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Default `sum`: what each process counted, added up. */
  aggregator?: Aggregator;
}

/** One series per distinct label values; the key is collision-free whatever the values. */
function seriesKey<L extends string>(names: readonly L[], labels: Labels<L>): string {
  return JSON.stringify(names.map((n) => labels[n]));
}

function ownLabels<L extends string>(names: readonly L[], labels: Labels<L>): Labels<L> {
  const out = {} as Labels<L>;
  for (const n of names) out[n] = labels[n];
  return out;
}

abstract class Valued<L extends string> {
  protected readonly series = new Map<string, { labels: Labels<L>; value: number }>();
  constructor(readonly def: Definition<L>) {}

  get name(): string {
    return this.def.name;
  }

  protected add(labels: Labels<L>, by: number, replace: boolean): void {
    const key = seriesKey(this.def.labelNames, labels);
    const s = this.series.get(key);
    if (s) s.value = replace ? by : s.value + by;
    else this.series.set(key, { labels: ownLabels(this.def.labelNames, labels), value: by });
  }

  reset(): void {
    this.series.clear();
  }

  protected reading(type: 'counter' | 'gauge'): MetricReading {
    const values = [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value }));
    return { name: this.def.name, help: this.def.help, type, values, aggregator: this.def.aggregator ?? 'sum' };
  }
}

export class Counter<L extends string> extends Valued<L> {
  inc(labels: Labels<L>, by = 1): void {
    this.add(labels, by, false);
  }

  async get(): Promise<MetricReading> {
    return this.reading('counter');
  }
}

export class Gauge<L extends string> extends Valued<L> {
  /** `collect`, when given, sets the gauge's values right before each reading. */
  constructor(
    def: Definition<L>,
    private readonly collect?: (gauge: Gauge<L>) => void,
  ) {
    super(def);
  }

  set(labels: Labels<L>, value: number): void {
    this.add(labels, value, true);
  }

  async get(): Promise<MetricReading> {
    this.collect?.(this);
    return this.reading('gauge');
  }
}

interface Distribution<L extends string> {
  labels: Labels<L>;
  /** Observations per bucket, not cumulated (the last one counts those above every bound). */
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram<L extends string> {
  private readonly series = new Map<string, Distribution<L>>();
  constructor(
    readonly def: Definition<L>,
    private readonly buckets: readonly number[],
  ) {}

  get name(): string {
    return this.def.name;
  }

  observe(labels: Labels<L>, value: number): void {
    const key = seriesKey(this.def.labelNames, labels);
    let d = this.series.get(key);
    if (!d) {
      d = { labels: ownLabels(this.def.labelNames, labels), counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, d);
    }
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]) i++;
    d.counts[i]++;
    d.sum += value;
    d.count++;
  }

  reset(): void {
    this.series.clear();
  }

  async get(): Promise<MetricReading> {
    const values: Sample[] = [];
    const bucketName = `${this.def.name}_bucket`;
    for (const d of this.series.values()) {
      let cumulated = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        cumulated += d.counts[i];
        const le = i < this.buckets.length ? this.buckets[i] : '+Inf';
        values.push({ labels: { le, ...d.labels }, value: cumulated, metricName: bucketName });
      }
      values.push({ labels: d.labels, value: d.sum, metricName: `${this.def.name}_sum` });
      values.push({ labels: d.labels, value: d.count, metricName: `${this.def.name}_count` });
    }
    return { name: this.def.name, help: this.def.help, type: 'histogram', values, aggregator: 'sum' };
  }
}
