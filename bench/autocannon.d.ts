// The part of autocannon 9's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      timeout?: number;
      pipelining?: number;
      workers?: number;
      title?: string;
      method?: string;
      headers?: Record<string, string>;
      requests?: Request[];
      overallRate?: number;
    }

    interface Histogram {
      min: number;
      max: number;
      average: number;
      stddev: number;
      total: number;
      p2_5: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      title?: string;
      url: string;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      connections: number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }

  function autocannon(opts: autocannon.Options): Promise<autocannon.Result> & { stop(): void };
  export default autocannon;
}
