import type { VendorFailureKind } from '../vendor-client.js';

/** VENDOR_B result codes and what they mean for the issuance. Unknown codes are a vendor failure. */
export const VENDOR_B_RESULT_CODES: Readonly<Record<string, VendorFailureKind>> = {
  'CF-03002': 'pending',
  'CF-12872': 'expired',
  'CF-12001': 'expired',
  'CF-00025': 'expired',
  'CF-03001': 'state-invalid',
  'CF-03003': 'state-invalid',
  'CF-12102': 'rejected',
  'CF-12100': 'rejected',
  'CF-12835': 'rejected',
  'CF-12837': 'rejected',
  'CF-12870': 'rejected',
  'CF-12871': 'rejected',
  'CF-12873': 'rejected',
  'CF-12055': 'rejected',
  'CF-13000': 'rejected',
  'CF-00016': 'rejected',
  'CF-00001': 'unavailable',
  'CF-00002': 'unavailable',
  'CF-00007': 'unavailable',
  'CF-00012': 'unavailable',
  'CF-01004': 'unavailable',
  'CF-12003': 'unavailable',
  'CF-03999': 'unavailable',
};

export const classifyVendorBCode = (code: string): VendorFailureKind => VENDOR_B_RESULT_CODES[code] ?? 'unavailable';
