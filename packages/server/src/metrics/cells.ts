/**
 * Counters and histograms whose series are plain numbers the caller holds. prom-client's own
 * `inc()` and `observe()` build a label key string on every call, even through a `labels()` child
 * (docs/metrics.md, "Cost"), which the manifest path cannot spend. A cell is one series, resolved
 * once by its label values and kept; counting is `cell.value += n`. prom-client reads the cells
 * only when /metrics is scraped (prometheus-registry.ts), and is not even loaded until then.
 */

/** One series of a counter. */
export interface CounterCell<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  value: number;
}

/** The key of a label set: its values in the family's label order, each prefixed by its length (unambiguous). */
const keyOf = (names: readonly string[], labels: Readonly<Record<string, string>>): string => {
  let key = '';
  for (const name of names) {
    const value = labels[name] ?? '';
    key += `${value.length}:${value}`;
  }
  return key;
};

/** What a family is called and says in the exposition, and whether it is exported at all. */
export interface FamilyInfo<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  /** False for the metrics of an area that is off: counted into, never exported. */
  readonly exported: boolean;
}

/** A counter family: its cells by label values. */
export class CounterFamily<L extends string> implements FamilyInfo<L> {
  private readonly byKey = new Map<string, CounterCell<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    readonly exported = true,
  ) {}

  /** The cell of one label set, created (at zero, so it is exported from now on) on first use. */
  cell(labels: Readonly<Record<L, string>>): CounterCell<L> {
    const key = keyOf(this.labelNames, labels);
    let cell = this.byKey.get(key);
    if (!cell) {
      cell = { labels: { ...labels }, value: 0 };
      this.byKey.set(key, cell);
    }
    return cell;
  }

  cells(): IterableIterator<CounterCell<L>> {
    return this.byKey.values();
  }
}

/** One series of a histogram: counts per bucket (not cumulative; the last is above every bound), sum and count. */
export class HistogramCell<L extends string> {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<L, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    // Values are mostly small and bounds ascend: the scan usually ends within the first few.
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > (bounds[index] as number)) index++;
    (this.counts[index] as number)++;
    this.sum += value;
    this.count++;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/** A histogram family: ascending bucket bounds (`le`, inclusive) and its cells by label values. */
export class HistogramFamily<L extends string> implements FamilyInfo<L> {
  readonly bounds: readonly number[];
  private readonly byKey = new Map<string, HistogramCell<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    buckets: readonly number[],
    readonly exported = true,
  ) {
    this.bounds = [...buckets].sort((a, b) => a - b);
  }

  /** The cell of one label set, created (empty, and exported from now on) on first use. */
  cell(labels: Readonly<Record<L, string>>): HistogramCell<L> {
    const key = keyOf(this.labelNames, labels);
    let cell = this.byKey.get(key);
    if (!cell) {
      cell = new HistogramCell<L>({ ...labels }, this.bounds);
      this.byKey.set(key, cell);
    }
    return cell;
  }

  cells(): IterableIterator<HistogramCell<L>> {
    return this.byKey.values();
  }
}
