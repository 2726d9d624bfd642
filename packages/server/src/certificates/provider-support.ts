import type { ProviderCode } from '@ferry/contracts';

export type ProviderSupport =
  | { supported: true; vendorCode: string }
  | { supported: false; reason: 'not-in-vendor-table' | 'disabled-by-configuration' };

/**
 * Whether a vendor can authenticate with a provider, decided before any vendor call: the vendor's
 * own table must map the provider, and the operator must not have switched it off for that vendor
 * (VENDOR_A_DISABLED_PROVIDERS / VENDOR_B_DISABLED_PROVIDERS).
 */
export function decideProviderSupport(input: {
  provider: ProviderCode;
  vendorCode: string | undefined;
  disabled: readonly ProviderCode[];
}): ProviderSupport {
  if (!input.vendorCode) return { supported: false, reason: 'not-in-vendor-table' };
  if (input.disabled.includes(input.provider)) return { supported: false, reason: 'disabled-by-configuration' };
  return { supported: true, vendorCode: input.vendorCode };
}

export const unsupportedProviderMessage = (vendor: string, provider: ProviderCode): string =>
  `${vendor} does not support the simple-authentication provider ${provider}; choose another provider.`;
