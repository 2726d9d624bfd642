import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CounterFamily, HistogramFamily } from './cells.js';

/**
 * prom-client's side of FerryMetrics: a Registry that reads the cells when it is scraped. Loaded
 * only by an instance that serves /metrics (prom-client and its default metrics take a noticeable
 * part of a start-up otherwise spent for nothing).
 */

/** A PostgreSQL pool as pg reports it (pg.Pool's counters). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

/** What the database gauges read on each scrape: the engine, and its pools when it has any. */
export interface DatabaseSource {
  engine: 'sqlite' | 'postgres';
  pools?: Partial<Record<'main' | 'ephemeral', PoolCounts>>;
}

/** The rate-limit Redis circuit breaker's phase (http/redis-breaker.ts); undefined without REDIS_URL. */
export type BreakerPhase = 'closed' | 'open' | 'probing';

export interface RegistrySource {
  counters: ReadonlyArray<CounterFamily<string>>;
  histograms: ReadonlyArray<HistogramFamily<string>>;
  database(): DatabaseSource | undefined;
  rateLimitBreaker(): BreakerPhase | undefined;
  /** Add prom-client's default process metrics (shared by every registry of the process). */
  processMetrics: boolean;
}

type HistogramObject<L extends string> = Awaited<ReturnType<Histogram<L>['get']>>;
type HistogramValue<L extends string> = HistogramObject<L>['values'][number];

/**
 * A histogram family in prom-client's own histogram format: a prom-client Histogram (so the
 * registry renders it like any other) whose values come from the family's cells.
 */
class FamilyHistogram<L extends string> extends Histogram<L> {
  private readonly family: HistogramFamily<L>;

  constructor(registry: Registry, family: HistogramFamily<L>) {
    super({
      name: family.name,
      help: family.help,
      labelNames: [...family.labelNames],
      buckets: [...family.bounds],
      registers: [registry],
    });
    this.family = family;
  }

  /** The series as the registry prints them: cumulative buckets with `le`, then `_sum` and `_count`. */
  private values(): Array<HistogramValue<L>> {
    const values: Array<HistogramValue<L>> = [];
    const { name, bounds } = this.family;
    for (const cell of this.family.cells()) {
      // `le` is not one of the family's label names, which prom-client's types know nothing beyond.
      const labels = (le: number | string) => ({ ...cell.labels, le }) as HistogramValue<L>['labels'];
      let cumulative = 0;
      for (let index = 0; index < bounds.length; index++) {
        cumulative += cell.counts[index] as number;
        values.push({ metricName: `${name}_bucket`, labels: labels(bounds[index] as number), value: cumulative });
      }
      values.push(
        { metricName: `${name}_bucket`, labels: labels('+Inf'), value: cell.count },
        { metricName: `${name}_sum`, labels: { ...cell.labels }, value: cell.sum },
        { metricName: `${name}_count`, labels: { ...cell.labels }, value: cell.count },
      );
    }
    return values;
  }

  override async get(): Promise<HistogramObject<L>> {
    // prom-client's Histogram sets these on itself (its `type` is 'histogram').
    const { name, help, type, aggregator, collect } = this as unknown as HistogramObject<L>;
    return { name, help, type, aggregator, collect, values: this.values() };
  }

  /** What the registry reads to print (prom-client prefers it to get()). */
  async getForPromString(): Promise<HistogramObject<L>> {
    return this.get();
  }
}

/** prom-client's default metrics watch the process (GC, event loop): one set per process, shared. */
let processRegistry: Registry | undefined;
function sharedProcessRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function buildRegistry(source: RegistrySource): Registry {
  const registry = new Registry();
  for (const family of source.counters) {
    if (!family.exported) continue;
    new Counter({
      name: family.name,
      help: family.help,
      labelNames: [...family.labelNames],
      registers: [registry],
      // prom-client's scrape hook: the cells' values, through the public API.
      collect() {
        this.reset();
        for (const cell of family.cells()) this.inc(cell.labels, cell.value);
      },
    });
  }
  for (const family of source.histograms) if (family.exported) new FamilyHistogram(registry, family);
  registerDatabaseGauges(registry, source.database);
  new Gauge({
    name: 'ferry_rate_limit_redis_breaker_open',
    help: 'Whether this instance has stopped asking the rate-limit Redis, which stopped answering (1: open or probing, 0: closed); absent without REDIS_URL.',
    registers: [registry],
    collect() {
      this.reset();
      const phase = source.rateLimitBreaker();
      if (phase !== undefined) this.set(phase === 'closed' ? 0 : 1);
    },
  });
  return source.processMetrics ? Registry.merge([registry, sharedProcessRegistry()]) : registry;
}

function registerDatabaseGauges(registry: Registry, database: () => DatabaseSource | undefined): void {
  new Gauge({
    name: 'ferry_database_info',
    help: 'The database engine this instance uses (value 1).',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      this.reset();
      const source = database();
      if (source) this.set({ engine: source.engine }, 1);
    },
  });
  const poolGauge = (name: string, help: string, read: (pool: PoolCounts) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [pool, counts] of Object.entries(database()?.pools ?? {})) {
          const value = counts && read(counts);
          if (value !== undefined) this.set({ pool }, value);
        }
      },
    });
  poolGauge(
    'ferry_database_pool_connections',
    'PostgreSQL connections open in the pool (pg totalCount).',
    (pool) => pool.totalCount,
  );
  poolGauge(
    'ferry_database_pool_idle_connections',
    'PostgreSQL connections open and idle (pg idleCount).',
    (pool) => pool.idleCount,
  );
  poolGauge(
    'ferry_database_pool_waiting_requests',
    'Queries waiting for a PostgreSQL connection (pg waitingCount).',
    (pool) => pool.waitingCount,
  );
  poolGauge(
    'ferry_database_pool_max_connections',
    'The most connections the PostgreSQL pool may open (DATABASE_POOL_SIZE).',
    (pool) => pool.options.max,
  );
}
