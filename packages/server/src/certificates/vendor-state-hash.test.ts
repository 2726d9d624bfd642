import { describe, expect, it } from 'vitest';
import { hashVendorState } from './vendor-state-hash.js';

describe('hashVendorState', () => {
  const info = { jobIndex: 0, threadIndex: 0, jti: 'a1b2c3', twoWayTimestamp: 1_700_000_000_000 };

  it('is stable and never contains the state', () => {
    const hash = hashVendorState('VENDOR_A', { field: 'stepData', stepData: 'opaque-step-data' });
    expect(hash).toBe(hashVendorState('VENDOR_A', { field: 'stepData', stepData: 'opaque-step-data' }));
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('opaque');
  });

  it('finds states recorded before vendors became definitions: the same hash for the same state', () => {
    expect(hashVendorState('VENDOR_A', { field: 'stepData', stepData: 'opaque-step-data' })).toBe(
      'o8JYSqVo-U9XrjKaBSAQsTCm1fWCiAgWGvfEBoebrI8',
    );
    expect(hashVendorState('VENDOR_B', { field: 'twoWayInfo', twoWayInfo: info })).toBe(
      'M_iZk-IDGUP3o4LiGB5UMEB5VTPAr-Vsv1J6uRmNbGo',
    );
  });

  it.each([
    ['jobIndex', { ...info, jobIndex: 1 }],
    ['threadIndex', { ...info, threadIndex: 1 }],
    ['jti', { ...info, jti: 'a1b2c4' }],
    ['twoWayTimestamp', { ...info, twoWayTimestamp: info.twoWayTimestamp + 1 }],
  ])('changes when %s changes', (_member, changed) => {
    expect(hashVendorState('VENDOR_B', { field: 'twoWayInfo', twoWayInfo: changed })).not.toBe(
      hashVendorState('VENDOR_B', { field: 'twoWayInfo', twoWayInfo: info }),
    );
  });

  it('keeps the vendors apart, whatever their second-call field', () => {
    expect(hashVendorState('VENDOR_A', { field: 'stepData', stepData: '0\n0\na1b2c3\n1' })).not.toBe(
      hashVendorState('VENDOR_B', {
        field: 'twoWayInfo',
        twoWayInfo: { jobIndex: 0, threadIndex: 0, jti: 'a1b2c3', twoWayTimestamp: 1 },
      }),
    );
    const state = { field: 'stepData', stepData: 'same' } as const;
    expect(hashVendorState('VENDOR_A', state)).not.toBe(hashVendorState('VENDOR_C', state));
  });
});
