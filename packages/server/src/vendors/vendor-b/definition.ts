import { secondCallField } from '@ferry/contracts';
import { builtInSimulator } from '../built-in-simulator.js';
import type { VendorDefinition } from '../vendor-definition.js';
import { type VendorBAccount, vendorBConfig } from './account.js';
import { VendorBClient } from './client.js';
import { VENDOR_B_RESULT_CODES } from './result-codes.js';

/** VENDOR_B: the `twoWayInfo` style (docs/certificates.md, "Vendors"). */
export const vendorB: VendorDefinition<VendorBAccount> = {
  id: 'VENDOR_B',
  secondCall: secondCallField('VENDOR_B'),
  metricsLabel: 'VENDOR_B',
  resultCodes: VENDOR_B_RESULT_CODES,
  config: vendorBConfig,
  createClient: (account, timing) => new VendorBClient(account, timing),
  simulator: () => builtInSimulator('VENDOR_B'),
};
