// A small bounded least-recently-used map. Used for results keyed by immutable git object
// ids (a commit id never changes meaning), so every process may keep its own copy safely.
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private weight = 0;

  /** `max` total weight; `weigh` gives an entry's weight (1 by default). */
  constructor(
    private readonly max: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.weight -= this.weigh(old);
      this.map.delete(key);
    }
    const w = this.weigh(value);
    if (w > this.max) return; // too big to keep at all
    this.map.set(key, value);
    this.weight += w;
    while (this.weight > this.max) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      this.map.delete(oldestKey);
      this.weight -= this.weigh(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
