import { describe, expect, it } from 'vitest';
import { CounterFamily, HistogramFamily } from '../../src/metrics/cells.js';
import {
  CHANNELS,
  FerryMetrics,
  MANIFEST_DURATION_BUCKETS,
  MANIFEST_OUTCOMES,
  PLATFORMS,
  type PoolCounts,
} from '../../src/metrics/ferry-metrics.js';
import { type Exposition, parseExposition, sampleSum } from '../support/prometheus.js';

async function exposition(metrics: FerryMetrics): Promise<Exposition> {
  return parseExposition((await metrics.exposition()).text);
}

const samples = (families: Exposition, name: string) => {
  const found = families.samples.get(name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};

describe('FerryMetrics', () => {
  it('exports every manifest outcome × platform × channel from the start, at zero', async () => {
    const families = await exposition(new FerryMetrics({ processMetrics: false }));
    expect(families.families.get('ferry_manifest_requests_total')?.type).toBe('COUNTER');
    const requests = samples(families, 'ferry_manifest_requests_total');
    expect(requests).toHaveLength(MANIFEST_OUTCOMES.length * PLATFORMS.length * CHANNELS.length);
    expect(requests.every((sample) => sample.value === 0)).toBe(true);
  });

  it('bounds platform and channel: anything but the protocol values counts as other', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.manifestAnswered('update', 'ios', 'production', 0.0001);
    metrics.manifestAnswered('update', 'android', 'development', 0.0001);
    for (let i = 0; i < 1000; i++) metrics.manifestAnswered('no-update', `web-${i}`, `staging-${i}`, 0.0001);
    // Case matters: the manifest route lowercases before it counts; a raw value is not a platform.
    metrics.manifestAnswered('refused', 'IOS', 'Production', 0.0001);
    const families = await exposition(metrics);
    const requests = samples(families, 'ferry_manifest_requests_total');
    // A thousand distinct values made no new series.
    expect(requests).toHaveLength(MANIFEST_OUTCOMES.length * PLATFORMS.length * CHANNELS.length);
    const labelValues = (name: string) => new Set(requests.map((sample) => sample.labels[name]));
    expect(labelValues('platform')).toEqual(new Set(PLATFORMS));
    expect(labelValues('channel')).toEqual(new Set(CHANNELS));
    expect(sampleSum(families, 'ferry_manifest_requests_total', { outcome: 'update', platform: 'ios' })).toBe(1);
    expect(
      sampleSum(families, 'ferry_manifest_requests_total', {
        outcome: 'update',
        platform: 'android',
        channel: 'development',
      }),
    ).toBe(1);
    expect(
      sampleSum(families, 'ferry_manifest_requests_total', {
        outcome: 'no-update',
        platform: 'other',
        channel: 'other',
      }),
    ).toBe(1000);
    expect(
      sampleSum(families, 'ferry_manifest_requests_total', { outcome: 'refused', platform: 'other', channel: 'other' }),
    ).toBe(1);
  });

  it('counts answers for tracks without a release per runtime version, in bounded series', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    const families = await exposition(metrics);
    // Series appear as runtime versions do: none are known in advance.
    expect(families.families.get('ferry_manifest_no_release_total')?.type).toBe('COUNTER');
    expect(families.samples.get('ferry_manifest_no_release_total') ?? []).toEqual([]);
    metrics.manifestNoRelease('ios', 'production', '1.0.0(2)');
    metrics.manifestNoRelease('ios', 'production', '1.0.0(2)');
    metrics.manifestNoRelease('android', 'development', '1.0.0(2)');
    metrics.manifestNoRelease('web', 'staging', '1.0.0(2)');
    metrics.manifestNoRelease('ios', 'production', 'a b');
    for (let i = 0; i < 500; i++) metrics.manifestNoRelease('ios', 'production', `2.0.${i}`);
    const after = await exposition(metrics);
    const count = (labels: Record<string, string>) => sampleSum(after, 'ferry_manifest_no_release_total', labels);
    expect(count({ runtime_version: '1.0.0(2)', platform: 'ios', channel: 'production' })).toBe(2);
    expect(count({ runtime_version: '1.0.0(2)', platform: 'android', channel: 'development' })).toBe(1);
    expect(count({ runtime_version: '1.0.0(2)', platform: 'other', channel: 'other' })).toBe(1);
    expect(count({})).toBe(505);
    const series = after.samples.get('ferry_manifest_no_release_total')!;
    expect(series.filter((sample) => sample.labels.runtime_version !== 'other')).toHaveLength(100);
    // 3 series of 1.0.0(2), 97 of 2.0.x, and the rest, 'a b' included, in other.
    expect(count({ runtime_version: 'other' })).toBe(1 + 500 - 97);
  });

  it('forgets the warm-up: no-release answers go back to zero with the other manifest answers', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.manifestNoRelease('ios', 'production', '1.0.0(2)');
    metrics.forgetManifestAnswers();
    expect(sampleSum(await exposition(metrics), 'ferry_manifest_no_release_total', {})).toBe(0);
  });

  it('counts an outcome outside the type as error rather than throwing on the hot path', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.manifestAnswered('exploded' as 'error', 'ios', 'production', 0.001);
    const families = await exposition(metrics);
    expect(sampleSum(families, 'ferry_manifest_requests_total', { outcome: 'error' })).toBe(1);
  });

  it('puts manifest durations in cumulative buckets, with sum and count', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    for (const seconds of [0.00004, 0.00005, 0.0002, 0.0002, 0.003, 2]) {
      metrics.manifestAnswered('update', 'ios', 'production', seconds);
    }
    const families = await exposition(metrics);
    expect(families.families.get('ferry_manifest_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(sampleSum(families, 'ferry_manifest_duration_seconds_count')).toBe(6);
    expect(sampleSum(families, 'ferry_manifest_duration_seconds_sum')).toBeCloseTo(2.00349, 6);
    const bucket = (le: string) => sampleSum(families, 'ferry_manifest_duration_seconds_bucket', { le });
    // A bound is inclusive (le): 0.00005 lands in the 0.00005 bucket.
    expect(bucket('0.00005')).toBe(2);
    expect(bucket('0.0001')).toBe(2);
    expect(bucket('0.00025')).toBe(4);
    expect(bucket('0.005')).toBe(5);
    expect(bucket('1')).toBe(5);
    expect(bucket('+Inf')).toBe(6);
    expect(samples(families, 'ferry_manifest_duration_seconds_bucket')).toHaveLength(
      MANIFEST_DURATION_BUCKETS.length + 1,
    );
  });

  it('counts asset bytes by encoding, unknown encodings as other', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.assetBytesServed(100, 'br');
    metrics.assetBytesServed(50, 'br');
    metrics.assetBytesServed(7, 'gzip');
    metrics.assetBytesServed(3, 'identity');
    metrics.assetBytesServed(1, 'deflate');
    const families = await exposition(metrics);
    expect(sampleSum(families, 'ferry_asset_bytes_served_total', { encoding: 'br' })).toBe(150);
    expect(sampleSum(families, 'ferry_asset_bytes_served_total', { encoding: 'gzip' })).toBe(7);
    expect(sampleSum(families, 'ferry_asset_bytes_served_total', { encoding: 'identity' })).toBe(3);
    expect(sampleSum(families, 'ferry_asset_bytes_served_total', { encoding: 'other' })).toBe(1);
  });

  it('counts release events', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.published('publish');
    metrics.published('publish');
    metrics.published('rollback');
    metrics.guardBlocked();
    metrics.guardBypassed();
    metrics.guardBypassed();
    metrics.rolloutChanged('percent');
    metrics.rolloutChanged('complete');
    metrics.rolloutHalted();
    metrics.failureReported('failed');
    metrics.failureReported('fatal');
    metrics.failureReported('fatal');
    const families = await exposition(metrics);
    expect(sampleSum(families, 'ferry_releases_published_total', { kind: 'publish' })).toBe(2);
    expect(sampleSum(families, 'ferry_releases_published_total', { kind: 'rollback' })).toBe(1);
    expect(sampleSum(families, 'ferry_releases_published_total', { kind: 'directive' })).toBe(0);
    expect(sampleSum(families, 'ferry_guard_blocked_total')).toBe(1);
    expect(sampleSum(families, 'ferry_guard_bypassed_total')).toBe(2);
    expect(sampleSum(families, 'ferry_rollout_changes_total', { action: 'percent' })).toBe(1);
    expect(sampleSum(families, 'ferry_rollout_changes_total', { action: 'revert' })).toBe(0);
    expect(sampleSum(families, 'ferry_rollout_halts_total')).toBe(1);
    expect(sampleSum(families, 'ferry_failure_reports_total', { kind: 'fatal' })).toBe(2);
  });

  it('bounds certificate documents and vendors, and times vendor exchanges by vendor and operation', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.certificateFlow('family-relations', 'VENDOR_B', 'issued');
    metrics.certificateFlow('passport', 'VENDOR_Z', 'error');
    metrics.vendorRequest('VENDOR_A', 'start-authentication', 0.2);
    metrics.vendorRequest('VENDOR_A', 'start-authentication', 45);
    metrics.vendorRequest('VENDOR_B', 'token', 0.03);
    const families = await exposition(metrics);
    expect(
      sampleSum(families, 'ferry_certificate_flows_total', {
        document: 'family-relations',
        vendor: 'VENDOR_B',
        outcome: 'issued',
      }),
    ).toBe(1);
    expect(
      sampleSum(families, 'ferry_certificate_flows_total', { document: 'other', vendor: 'other', outcome: 'error' }),
    ).toBe(1);
    const name = 'ferry_vendor_request_duration_seconds';
    const start = { vendor: 'VENDOR_A', operation: 'start-authentication' };
    expect(samples(families, `${name}_count`).map((sample) => sample.labels)).toEqual([
      start,
      { vendor: 'VENDOR_B', operation: 'token' },
    ]);
    expect(sampleSum(families, `${name}_count`, start)).toBe(2);
    expect(sampleSum(families, `${name}_sum`, start)).toBeCloseTo(45.2, 6);
    expect(sampleSum(families, `${name}_bucket`, { ...start, le: '0.25' })).toBe(1);
    expect(sampleSum(families, `${name}_bucket`, { ...start, le: '30' })).toBe(1);
    expect(sampleSum(families, `${name}_bucket`, { ...start, le: '60' })).toBe(2);
    expect(sampleSum(families, `${name}_bucket`, { ...start, le: '+Inf' })).toBe(2);
    expect(sampleSum(families, `${name}_count`, { operation: 'token' })).toBe(1);
  });

  it('reads the database pools on each scrape', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    const main: PoolCounts = { totalCount: 3, idleCount: 2, waitingCount: 0, options: { max: 3 } };
    const ephemeral: PoolCounts = { totalCount: 3, idleCount: 3, waitingCount: 0, options: { max: 3 } };
    metrics.observeDatabase({ engine: 'postgres', pools: { main, ephemeral } });
    let families = await exposition(metrics);
    expect(sampleSum(families, 'ferry_database_info', { engine: 'postgres' })).toBe(1);
    expect(sampleSum(families, 'ferry_database_pool_idle_connections', { pool: 'main' })).toBe(2);
    expect(sampleSum(families, 'ferry_database_pool_max_connections', { pool: 'ephemeral' })).toBe(3);
    main.idleCount = 0;
    main.waitingCount = 5;
    families = await exposition(metrics);
    expect(sampleSum(families, 'ferry_database_pool_idle_connections', { pool: 'main' })).toBe(0);
    expect(sampleSum(families, 'ferry_database_pool_waiting_requests', { pool: 'main' })).toBe(5);
  });

  it('reports SQLite as its engine, with no pool series', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.observeDatabase({ engine: 'sqlite' });
    const families = await exposition(metrics);
    expect(sampleSum(families, 'ferry_database_info', { engine: 'sqlite' })).toBe(1);
    expect(families.families.has('ferry_database_pool_connections')).toBe(true);
    expect(families.samples.get('ferry_database_pool_connections') ?? []).toHaveLength(0);
  });

  it("exports no metric of an area that is off, and still takes the area's calls", async () => {
    const metrics = new FerryMetrics({ processMetrics: false, areas: { ota: true, certificates: false } });
    metrics.certificateFlow('resident-certificate', 'VENDOR_A', 'started');
    metrics.vendorRequest('VENDOR_A', 'token', 0.1);
    const families = await exposition(metrics);
    expect(families.families.has('ferry_certificate_flows_total')).toBe(false);
    expect(families.families.has('ferry_vendor_request_duration_seconds')).toBe(false);
    expect(families.families.has('ferry_manifest_requests_total')).toBe(true);
    expect(families.families.has('ferry_asset_bytes_served_total')).toBe(true);

    const certificatesOnly = await exposition(
      new FerryMetrics({ processMetrics: false, areas: { ota: false, certificates: true } }),
    );
    expect(
      [...certificatesOnly.families.keys()].filter((name) => /manifest|guard|rollout|release|failure/.test(name)),
    ).toEqual([]);
  });

  it('adds the process metrics once per process, to any number of instances', async () => {
    const first = await exposition(new FerryMetrics());
    const second = await exposition(new FerryMetrics());
    for (const families of [first, second]) {
      expect(families.families.has('process_cpu_user_seconds_total')).toBe(true);
      expect(families.families.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
      expect(families.families.has('ferry_manifest_requests_total')).toBe(true);
    }
  });
});

describe('cells', () => {
  it('resolve a label set once: the same values give the same cell', () => {
    const counter = new CounterFamily('test_cells_total', 'test', ['a', 'b'] as const);
    const cell = counter.cell({ a: 'x', b: 'y' });
    expect(counter.cell({ b: 'y', a: 'x' })).toBe(cell);
    expect(counter.cell({ a: 'x', b: 'z' })).not.toBe(cell);
    // Keys are unambiguous: no split of the same characters between two labels meets another.
    expect(counter.cell({ a: 'x:', b: 'y' })).not.toBe(counter.cell({ a: 'x', b: ':y' }));
    expect([...counter.cells()]).toHaveLength(4);
  });

  it('keep histogram series apart by labels, count per bucket, and reset to empty', () => {
    const histogram = new HistogramFamily('test_seconds', 'test', ['kind'] as const, [1, 0.1]);
    expect(histogram.bounds).toEqual([0.1, 1]);
    const fast = histogram.cell({ kind: 'fast' });
    expect(histogram.cell({ kind: 'fast' })).toBe(fast);
    fast.observe(0.05);
    fast.observe(0.1);
    fast.observe(0.5);
    fast.observe(5);
    histogram.cell({ kind: 'slow' }).observe(5);
    expect([...fast.counts]).toEqual([2, 1, 1]);
    expect([fast.count, fast.sum]).toEqual([4, 5.65]);
    expect([...histogram.cells()].map((cell) => cell.count)).toEqual([4, 1]);
    fast.reset();
    expect([...fast.counts, fast.count, fast.sum]).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('FerryMetrics without an exposition', () => {
  it('counts without loading prom-client until an exposition is asked for', async () => {
    const metrics = new FerryMetrics({ processMetrics: false });
    metrics.manifestAnswered('update', 'ios', 'production', 0.001);
    const first = metrics.prepareExposition();
    expect(metrics.prepareExposition()).toBe(first);
    const { text } = await metrics.exposition();
    expect(text).toContain(
      'ferry_manifest_requests_total{app="default",outcome="update",platform="ios",channel="production"} 1',
    );
  });
});
