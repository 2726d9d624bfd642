import type { VendorFailureKind } from '../../../src/vendors/vendor-client.js';

/** What the test vendor's codes mean for an issuance; any other is a vendor failure. */
export const TEST_VENDOR_RESULT_CODES: Readonly<Record<string, VendorFailureKind>> = {
  WAIT: 'pending',
  GONE: 'expired',
  'BAD-SESSION': 'state-invalid',
  REFUSED: 'rejected',
  'BAD-REQUEST': 'unavailable',
};
