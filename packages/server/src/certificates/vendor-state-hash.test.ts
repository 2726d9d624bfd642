import { describe, expect, it } from 'vitest';
import { hashVendorState } from './vendor-state-hash.js';

describe('hashVendorState', () => {
  const info = { jobIndex: 0, threadIndex: 0, jti: 'a1b2c3', twoWayTimestamp: 1_700_000_000_000 };

  it('is stable and never contains the state', () => {
    const hash = hashVendorState({ vendor: 'VENDOR_A', stepData: 'opaque-step-data' });
    expect(hash).toBe(hashVendorState({ vendor: 'VENDOR_A', stepData: 'opaque-step-data' }));
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('opaque');
  });

  it.each([
    ['jobIndex', { ...info, jobIndex: 1 }],
    ['threadIndex', { ...info, threadIndex: 1 }],
    ['jti', { ...info, jti: 'a1b2c4' }],
    ['twoWayTimestamp', { ...info, twoWayTimestamp: info.twoWayTimestamp + 1 }],
  ])('changes when %s changes', (_member, changed) => {
    expect(hashVendorState({ vendor: 'VENDOR_B', twoWayInfo: changed })).not.toBe(
      hashVendorState({ vendor: 'VENDOR_B', twoWayInfo: info }),
    );
  });

  it('keeps the vendors apart', () => {
    expect(hashVendorState({ vendor: 'VENDOR_A', stepData: '0\n0\na1b2c3\n1' })).not.toBe(
      hashVendorState({
        vendor: 'VENDOR_B',
        twoWayInfo: { jobIndex: 0, threadIndex: 0, jti: 'a1b2c3', twoWayTimestamp: 1 },
      }),
    );
  });
});
