import type { ProviderCode } from '@ferry/contracts';

/**
 * VENDOR_A's `loginOrgCd` per provider. Support is decided from this table before any vendor call:
 * a provider missing here (or switched off with VENDOR_A_DISABLED_PROVIDERS) is UNSUPPORTED_PROVIDER.
 */
export const VENDOR_A_PROVIDER_CODES: Readonly<Partial<Record<ProviderCode, string>>> = {
  provider_a: 'kakao',
  provider_b: 'naver',
  provider_c: 'toss',
  provider_d: 'kb',
  provider_e: 'shinhan',
};
