import { createHash, randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DeviceReports, failedUpdateIds } from './device-reports.js';
import type { CheckReport, FailureReport, ReportStore } from './report-store.js';

const RELEASE = '11111111-2222-4333-8444-555555555555';
const OTHER = '99999999-2222-4333-8444-555555555555';
const request = (currentUpdateId?: string, embeddedUpdateId?: string) => ({
  platform: 'ios' as const,
  runtimeVersion: '1',
  channel: 'production' as const,
  currentUpdateId,
  embeddedUpdateId,
});

function fakeStore(known: string[] = [RELEASE]) {
  const checks: CheckReport[] = [];
  const failures: FailureReport[] = [];
  let writes = 0;
  const store: ReportStore = {
    knownReleases: async (ids) => new Set(ids.filter((id) => known.includes(id))),
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

const reportsOver = (store: ReportStore, halted: string[] = []) =>
  new DeviceReports({
    store,
    rollouts: { haltable: async () => [], halt: async (id) => (halted.push(id), true) },
    log: pino({ level: 'silent' }),
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
  it('writes each update and device once per write, hashed, and nothing for unknown updates or devices without an id', async () => {
    const { store, checks, failures } = fakeStore();
    const reports = reportsOver(store);
    const device = randomUUID();
    for (let i = 0; i < 3; i++) reports.observe({ 'eas-client-id': device }, request(RELEASE));
    reports.observe({ 'eas-client-id': randomUUID() }, request(OTHER));
    reports.observe({}, request(RELEASE));
    reports.observe({ 'eas-client-id': randomUUID() }, request(RELEASE, RELEASE)); // on its embedded update
    reports.observe({ 'eas-client-id': device, 'expo-recent-failed-update-ids': `"${RELEASE}"` }, request());
    reports.observe({ 'eas-client-id': device, 'expo-fatal-error': 'boom' }, request(RELEASE));
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
    const { store, checks } = fakeStore();
    const reports = reportsOver(store);
    const device = randomUUID();
    reports.observe({ 'eas-client-id': device }, request(RELEASE));
    await reports.flush();
    reports.observe({ 'eas-client-id': device }, request(RELEASE));
    await reports.flush();
    expect(checks).toHaveLength(1);
  });

  it('bounds what it holds: one early write at 10,000 pending, and nothing kept past 40,000', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { store, checks } = fakeStore();
    const slow: ReportStore = { ...store, knownReleases: async (ids) => (await gate, store.knownReleases(ids)) };
    const reports = reportsOver(slow);
    for (let i = 0; i < 50_000; i++) reports.observe({ 'eas-client-id': `device-${i}` }, request(RELEASE));
    release();
    await reports.flush();
    // The early write took the first 10,000; the rest stopped at 4 × 10,000 pending.
    expect(checks.length).toBeLessThanOrEqual(40_000);
    expect(checks.length).toBeGreaterThanOrEqual(10_000);
  });
});
