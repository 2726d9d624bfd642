import { z } from 'zod';
import { httpUrl, secret } from '../../config/variable-schemas.js';
import type { VendorConfigDefinition } from '../vendor-definition.js';

export interface VendorAAccount {
  baseUrl: string;
  userId: string;
  hkey: string;
  /** The 16-byte AES-128 key the vendor issued for its `...Enc` fields. */
  ekey: Buffer;
}

/** VENDOR_A_URL, _USER_ID, _HKEY, _EKEY (docs/configuration.md). */
export const vendorAConfig: VendorConfigDefinition<VendorAAccount> = {
  required: ['VENDOR_A_URL', 'VENDOR_A_USER_ID', 'VENDOR_A_HKEY', 'VENDOR_A_EKEY'],
  variables: {
    VENDOR_A_URL: httpUrl('VENDOR_A_URL').optional(),
    VENDOR_A_USER_ID: z.string().min(1).max(64).optional(),
    VENDOR_A_HKEY: secret('VENDOR_A_HKEY', 8).optional(),
    VENDOR_A_EKEY: z
      .string()
      .refine((value) => Buffer.byteLength(value, 'utf8') === 16, 'VENDOR_A_EKEY must be exactly 16 bytes')
      .optional(),
  },
  defaultAuthTtlSeconds: 300,
  account: (values) => ({
    baseUrl: values.VENDOR_A_URL as string,
    userId: values.VENDOR_A_USER_ID as string,
    hkey: values.VENDOR_A_HKEY as string,
    ekey: Buffer.from(values.VENDOR_A_EKEY as string, 'utf8'),
  }),
};
