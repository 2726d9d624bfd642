import { PROVIDER_CODES, type ProviderCode } from '@ferry/contracts';
import { VENDOR_A_PROVIDER_CODES, VENDOR_B_PROVIDER_CODES } from '@ferry/contracts/vendors';
import { describe, expect, it } from 'vitest';
import { decideProviderSupport, type ProviderSupport } from './provider-support.js';

const rows: Array<[string, ProviderCode, string | undefined, ProviderCode[], ProviderSupport]> = [
  ['mapped and enabled', 'provider_a', '1', [], { supported: true, vendorCode: '1' }],
  ['missing from the vendor table', 'provider_c', undefined, [], { supported: false, reason: 'not-in-vendor-table' }],
  [
    'disabled by configuration',
    'provider_d',
    '4',
    ['provider_d'],
    { supported: false, reason: 'disabled-by-configuration' },
  ],
  ['another provider disabled', 'provider_e', '7', ['provider_d'], { supported: true, vendorCode: '7' }],
];

describe('decideProviderSupport', () => {
  it.each(rows)('%s', (_name, provider, vendorCode, disabled, expected) => {
    expect(decideProviderSupport({ provider, vendorCode, disabled })).toEqual(expected);
  });
});

// The spec's provider table: all five providers are supported by both vendors.
describe.each([
  ['VENDOR_A', VENDOR_A_PROVIDER_CODES],
  ['VENDOR_B', VENDOR_B_PROVIDER_CODES],
])('%s provider table', (_vendor, table) => {
  it.each(PROVIDER_CODES)('maps %s to a vendor code', (provider) => {
    expect(table[provider]).toMatch(/^[a-z0-9]+$/);
  });

  it('maps no two providers to the same vendor code', () => {
    const codes = Object.values(table);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
