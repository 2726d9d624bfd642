import { Counter, Histogram, type MetricValue, type MetricValueWithName, type Registry } from 'prom-client';

/**
 * Counters and histograms whose series are plain numbers the caller holds, read by prom-client's
 * registry only when it is scraped. prom-client's own `inc()` and `observe()` build a label hash
 * string on every call, even through a `labels()` child: about 550 ns and 300 ns here, which the
 * manifest path (tens of thousands of answers a second) cannot spend. A cell is one series,
 * resolved once by its label values and kept; counting is `cell.value += n`.
 */

/** One series of a counter. */
export interface CounterCell<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  value: number;
}

/** The key of a label set: its values in the family's label order, joined by a byte no value holds. */
const keyOf = (names: readonly string[], labels: Readonly<Record<string, string>>): string => {
  let key = '';
  for (const name of names) key += `${labels[name]}\u0001`;
  return key;
};

/**
 * A counter family: cells by label values, exported through a prom-client Counter whose `collect`
 * (prom-client's scrape hook) copies them in with the public API.
 */
export class CounterCells<L extends string> {
  private readonly cells = new Map<string, CounterCell<L>>();
  private readonly counter: Counter<L>;

  constructor(
    registry: Registry | undefined,
    readonly name: string,
    help: string,
    private readonly labelNames: readonly L[],
  ) {
    const cells = this.cells;
    this.counter = new Counter<L>({
      name,
      help,
      labelNames: [...labelNames],
      registers: registry ? [registry] : [],
      collect(this: Counter<L>) {
        this.reset();
        for (const cell of cells.values()) this.inc(cell.labels as Partial<Record<L, string>>, cell.value);
      },
    });
  }

  /** The cell of one label set, created (at zero, so it is exported from now on) on first use. */
  cell(labels: Readonly<Record<L, string>>): CounterCell<L> {
    const key = keyOf(this.labelNames, labels);
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { labels: { ...labels }, value: 0 };
      this.cells.set(key, cell);
    }
    return cell;
  }

  /** The prom-client metric, for registration in another registry. */
  get metric(): Counter<L> {
    return this.counter;
  }
}

type HistogramObject<L extends string> = Awaited<ReturnType<Histogram<L>['get']>>;

/** One series of a histogram: counts per bucket (not cumulative), the sum and the count. */
export class HistogramCell<L extends string> {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<L, string>>,
    private readonly bounds: readonly number[],
  ) {
    // One more slot for observations above the largest bound (+Inf only).
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    // Values are mostly small, and bounds ascend: the scan usually ends within the first few.
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > (bounds[index] as number)) index++;
    (this.counts[index] as number)++;
    this.sum += value;
    this.count++;
  }
}

/**
 * A histogram family exported in prom-client's own histogram format: it is a prom-client
 * Histogram (so the registry renders it like any other) whose exported values come from cells.
 */
export class HistogramCells<L extends string> extends Histogram<L> {
  // Created lazily: prom-client's constructor calls reset() before subclass fields exist.
  private cells: Map<string, HistogramCell<L>> | undefined;
  private readonly bounds: readonly number[];
  private readonly orderedLabelNames: readonly L[];

  constructor(
    registry: Registry | undefined,
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
  ) {
    super({ name, help, labelNames: [...labelNames], buckets: [...buckets], registers: registry ? [registry] : [] });
    this.bounds = [...buckets].sort((a, b) => a - b);
    this.orderedLabelNames = labelNames;
  }

  /** The cell of one label set, created (empty, and exported from now on) on first use. */
  cell(labels: Readonly<Record<L, string>>): HistogramCell<L> {
    this.cells ??= new Map();
    const key = keyOf(this.orderedLabelNames, labels);
    let cell = this.cells.get(key);
    if (!cell) {
      cell = new HistogramCell<L>({ ...labels }, this.bounds);
      this.cells.set(key, cell);
    }
    return cell;
  }

  override reset(): void {
    for (const cell of this.cells?.values() ?? []) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }

  /** The series as the registry prints them: cumulative buckets with `le`, then `_sum` and `_count`. */
  private exported(): Array<MetricValueWithName<L>> {
    const values: Array<MetricValueWithName<L>> = [];
    const { name } = this as unknown as HistogramObject<L>;
    for (const cell of this.cells?.values() ?? []) {
      let cumulative = 0;
      for (let index = 0; index < this.bounds.length; index++) {
        cumulative += cell.counts[index] as number;
        values.push({
          metricName: `${name}_bucket`,
          labels: { ...cell.labels, le: this.bounds[index] } as MetricValue<L>['labels'],
          value: cumulative,
        });
      }
      values.push(
        {
          metricName: `${name}_bucket`,
          labels: { ...cell.labels, le: '+Inf' } as MetricValue<L>['labels'],
          value: cell.count,
        },
        { metricName: `${name}_sum`, labels: { ...cell.labels }, value: cell.sum },
        { metricName: `${name}_count`, labels: { ...cell.labels }, value: cell.count },
      );
    }
    return values;
  }

  override async get(): Promise<HistogramObject<L>> {
    // prom-client's Histogram sets these on itself (its `type` is 'histogram').
    const { name, help, type, aggregator, collect } = this as unknown as HistogramObject<L>;
    return { name, help, type, aggregator, collect, values: this.exported() };
  }

  /** What the registry reads to print (prom-client prefers it to get()). */
  async getForPromString(): Promise<HistogramObject<L>> {
    return this.get();
  }
}
