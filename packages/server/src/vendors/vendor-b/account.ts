import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { httpUrl, secret } from '../../config/variable-schemas.js';
import type { VendorConfigDefinition } from '../vendor-definition.js';

export interface VendorBAccount {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The account's RSA public key; identity numbers are encrypted with it. */
  publicKey: KeyObject;
}

/** Accepts the vendor's Base64 SPKI (how it is issued) or a PEM block. */
function parseRsaPublicKey(value: string): KeyObject | undefined {
  try {
    const key = value.includes('-----BEGIN')
      ? createPublicKey(value)
      : createPublicKey({ key: Buffer.from(value.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'rsa' ? key : undefined;
  } catch {
    return undefined;
  }
}

const rsaPublicKey = z
  .string()
  .min(1)
  .transform((value, ctx) => {
    const key = parseRsaPublicKey(value);
    if (key) return key;
    ctx.addIssue({ code: 'custom', message: 'must be an RSA public key (Base64 SPKI or PEM)' });
    return z.NEVER;
  });

/** VENDOR_B_URL, _CLIENT_ID, _CLIENT_SECRET, _PUBLIC_KEY, and _TOKEN_URL (docs/configuration.md). */
export const vendorBConfig: VendorConfigDefinition<VendorBAccount> = {
  required: ['VENDOR_B_URL', 'VENDOR_B_CLIENT_ID', 'VENDOR_B_CLIENT_SECRET', 'VENDOR_B_PUBLIC_KEY'],
  variables: {
    VENDOR_B_URL: httpUrl('VENDOR_B_URL').optional(),
    VENDOR_B_TOKEN_URL: httpUrl('VENDOR_B_TOKEN_URL').optional(),
    VENDOR_B_CLIENT_ID: z.string().min(1).max(255).optional(),
    VENDOR_B_CLIENT_SECRET: secret('VENDOR_B_CLIENT_SECRET', 8).optional(),
    VENDOR_B_PUBLIC_KEY: rsaPublicKey.optional(),
  },
  defaultAuthTtlSeconds: 270,
  account: (values) => ({
    baseUrl: values.VENDOR_B_URL as string,
    tokenUrl: (values.VENDOR_B_TOKEN_URL as string | undefined) ?? `${values.VENDOR_B_URL}/oauth/token`,
    clientId: values.VENDOR_B_CLIENT_ID as string,
    clientSecret: values.VENDOR_B_CLIENT_SECRET as string,
    publicKey: values.VENDOR_B_PUBLIC_KEY as KeyObject,
  }),
};
