import { z } from 'zod';

/**
 * The five simple-authentication providers, defined once. Web and native render them from this
 * list, in this order, with these labels and colours. A sixth provider that the original web client
 * had commented out is deliberately absent here, so it is excluded everywhere in the same way.
 */
export const PROVIDER_CODES = ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'] as const;
export const ProviderCode = z.enum(PROVIDER_CODES, {
  error: `loginOrgCd must be one of ${PROVIDER_CODES.join(', ')}`,
});
export type ProviderCode = z.infer<typeof ProviderCode>;

export type ProviderKind = 'messenger' | 'portal' | 'payments' | 'bank-certificate';

export interface Provider {
  code: ProviderCode;
  kind: ProviderKind;
  /** What the button says. */
  label: string;
  /** Brand background colour of the button (#RRGGBB). */
  color: string;
  /** Text colour that stays readable on `color`. */
  textColor: string;
  /** 1-based display position. */
  order: number;
}

export const PROVIDERS: readonly Provider[] = [
  { code: 'provider_a', kind: 'messenger', label: 'Messenger app', color: '#FEE500', textColor: '#191919', order: 1 },
  { code: 'provider_b', kind: 'portal', label: 'Web portal', color: '#03C75A', textColor: '#191919', order: 2 },
  { code: 'provider_c', kind: 'payments', label: 'Payments app', color: '#0064FF', textColor: '#FFFFFF', order: 3 },
  {
    code: 'provider_d',
    kind: 'bank-certificate',
    label: 'Bank certificate D',
    color: '#FFBC00',
    textColor: '#191919',
    order: 4,
  },
  {
    code: 'provider_e',
    kind: 'bank-certificate',
    label: 'Bank certificate E',
    color: '#0046FF',
    textColor: '#FFFFFF',
    order: 5,
  },
];

export const providerByCode = (code: ProviderCode): Provider => {
  const provider = PROVIDERS.find((p) => p.code === code);
  if (!provider) throw new Error(`unknown provider ${code}`);
  return provider;
};
