import { createHash, randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { pickHeaders } from '../manifest/manifest-headers.js';

/** The table's headers out of a headers object, as a client would send them. */
const pickHeadersOf = (headers: Record<string, string>) => pickHeaders(Object.entries(headers).flat());

import { DeviceReports, failedUpdateIds } from './device-reports.js';
import type { CheckReport, FailureReport, ReportStore } from './report-store.js';

const RELEASE = '11111111-2222-4333-8444-555555555555';
const OTHER = '99999999-2222-4333-8444-555555555555';
/** What a check's headers say the device runs, as the manifest path hands it to observe. */
/** A device's update ids: it runs `currentUpdateId`, unless that is its embedded update. */
const running = (currentUpdateId?: string, embeddedUpdateId?: string) => ({ currentUpdateId, embeddedUpdateId });

function fakeStore(known: string[] = [RELEASE]) {
  const checks: CheckReport[] = [];
  const failures: FailureReport[] = [];
  let writes = 0;
  const store: ReportStore = {
    knownReleases: async (ids) => new Map(ids.filter((id) => known.includes(id)).map((id) => [id, 'default'])),
    recordChecks: async (rows) => {
      writes++;
      checks.push(...rows);
    },
    recordFailures: async (rows) => {
      failures.push(...rows);
    },
    health: async () => ({ received: 0, failed: 0, failureRate: null }),
    adoption: async () => new Map(),
  };
  return { store, checks, failures, writes: () => writes };
}

const reportsOver = (store: ReportStore, halted: string[] = [], now?: () => number) =>
  new DeviceReports({
    store,
    rollouts: {
      haltable: async () => [],
      halt: async (id) => {
        halted.push(id);
        return true;
      },
    },
    log: pino({ level: 'silent' }),
    now,
  });

describe('failedUpdateIds', () => {
  it.each([
    [`"${RELEASE}"`, [RELEASE]],
    [`"${RELEASE.toUpperCase()}", "${OTHER}"`, [RELEASE, OTHER]],
    [`"${RELEASE}", "${RELEASE}"`, [RELEASE]],
    [`"not-an-id", "${RELEASE}"`, [RELEASE]],
    ['((( not a list', []],
    ['', []],
  ])('%s → %j', (header, expected) => expect(failedUpdateIds(header)).toEqual(expected));
});

describe('DeviceReports', () => {
  it("counts a device only toward a release of the app it asked: another app's release id is ignored", async () => {
    const { store, checks, failures } = fakeStore();
    const reports = reportsOver(store);
    const device = randomUUID();
    // A device of app shop that names the default app's release as running and as failed.
    reports.observe(
      pickHeadersOf({ 'eas-client-id': device, 'expo-recent-failed-update-ids': `"${RELEASE}"` }),
      running(RELEASE),
      device,
      'shop',
    );
    await reports.flush();
    expect(checks).toEqual([]);
    expect(failures).toEqual([]);
    // The same from a device of the default app counts.
    reports.observe(pickHeadersOf({ 'eas-client-id': device }), running(RELEASE), device, 'default');
    await reports.flush();
    expect(checks.map((check) => check.updateId)).toEqual([RELEASE]);
  });

  it('writes each update and device once per write, hashed, and nothing for unknown updates or devices without an id', async () => {
    const { store, checks, failures } = fakeStore();
    const reports = reportsOver(store);
    const device = randomUUID();
    for (let i = 0; i < 3; i++) reports.observe(pickHeadersOf({ 'eas-client-id': device }), running(RELEASE));
    reports.observe(pickHeadersOf({ 'eas-client-id': randomUUID() }), running(OTHER));
    reports.observe(pickHeadersOf({}), running(RELEASE));
    reports.observe(pickHeadersOf({ 'eas-client-id': randomUUID() }), running(RELEASE, RELEASE)); // on its embedded update
    // A crash of the embedded update is no failure of a release (docs/decisions.md, "Expo-Fatal-Error").
    reports.observe(
      pickHeadersOf({ 'eas-client-id': randomUUID(), 'expo-fatal-error': 'boom' }),
      running(RELEASE, RELEASE),
    );
    reports.observe(
      pickHeadersOf({ 'eas-client-id': device, 'expo-recent-failed-update-ids': `"${RELEASE}"` }),
      running(),
    );
    reports.observe(pickHeadersOf({ 'eas-client-id': device, 'expo-fatal-error': 'boom' }), running(RELEASE));
    await reports.flush();
    expect(checks).toEqual([
      {
        updateId: RELEASE,
        device: createHash('sha256').update(device).digest('base64url'),
        seenAt: expect.any(Number),
      },
    ]);
    // One failure per update and device: the fatal error of the same device does not count again.
    expect(failures).toHaveLength(1);
    expect(JSON.stringify([...checks, ...failures])).not.toContain(device);
  });

  it('writes a device that keeps checking again only after an hour', async () => {
    const { store, checks } = fakeStore([RELEASE, OTHER]);
    let now = 1_000_000;
    const reports = reportsOver(store, [], () => now);
    const device = randomUUID();
    const check = (update: string) => reports.observe(pickHeadersOf({ 'eas-client-id': device }), running(update));
    check(RELEASE);
    await reports.flush();
    now += 60 * 60 * 1000 - 1;
    check(RELEASE);
    await reports.flush();
    expect(checks).toHaveLength(1);
    // Another update of the same device is another pair: written at once.
    check(OTHER);
    await reports.flush();
    expect(checks.map((row) => row.updateId)).toEqual([RELEASE, OTHER]);
    now += 1;
    check(RELEASE);
    await reports.flush();
    expect(checks.map((row) => row.updateId)).toEqual([RELEASE, OTHER, RELEASE]);
  });

  it('starts its memory of written devices over past 100,000 pairs, so it stays bounded', async () => {
    const { store, checks } = fakeStore();
    const reports = reportsOver(store);
    const observeAll = async (devices: string[]) => {
      for (const device of devices) reports.observe(pickHeadersOf({ 'eas-client-id': device }), running(RELEASE));
      await reports.flush();
    };
    const first = Array.from({ length: 10_000 }, (_, i) => `first-${i}`);
    await observeAll(first);
    // Nine more batches fill the memory to 100,000 pairs: the first devices are still remembered.
    for (let batch = 0; batch < 9; batch++) await observeAll(first.map((_, i) => `batch-${batch}-${i}`));
    await observeAll(first);
    expect(checks).toHaveLength(100_000);
    // One batch more does not fit: the memory starts over, and the first devices are written again.
    await observeAll(first.map((_, i) => `last-${i}`));
    await observeAll(first);
    expect(checks).toHaveLength(120_000);
  });

  it('bounds what it holds: one early write at 10,000 pending, and nothing kept past 40,000', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { store, checks } = fakeStore();
    const slow: ReportStore = {
      ...store,
      knownReleases: async (ids) => {
        await gate;
        return store.knownReleases(ids);
      },
    };
    const reports = reportsOver(slow);
    for (let i = 0; i < 50_000; i++)
      reports.observe(pickHeadersOf({ 'eas-client-id': `device-${i}` }), running(RELEASE));
    release();
    await reports.flush();
    // The early write took the first 10,000; the rest stopped at 4 × 10,000 pending.
    expect(checks.length).toBeLessThanOrEqual(40_000);
    expect(checks.length).toBeGreaterThanOrEqual(10_000);
  });
});
