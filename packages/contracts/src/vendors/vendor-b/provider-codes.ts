import type { ProviderCode } from '@ferry/contracts';

/**
 * VENDOR_B's `loginTypeLevel` per provider. Support is decided from this table before any vendor
 * call: a provider missing here (or switched off with VENDOR_B_DISABLED_PROVIDERS) is
 * UNSUPPORTED_PROVIDER.
 */
export const VENDOR_B_PROVIDER_CODES: Readonly<Partial<Record<ProviderCode, string>>> = {
  provider_a: '1',
  provider_b: '6',
  provider_c: '8',
  provider_d: '4',
  provider_e: '7',
};
