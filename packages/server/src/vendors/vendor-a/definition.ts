import { secondCallField } from '@ferry/contracts';
import { builtInSimulator } from '../built-in-simulator.js';
import type { VendorDefinition } from '../vendor-definition.js';
import { type VendorAAccount, vendorAConfig } from './account.js';
import { VendorAClient } from './client.js';
import { VENDOR_A_RESULT_CODES } from './result-codes.js';

/** VENDOR_A: the `stepData` style (docs/certificates.md, "Vendors"). */
export const vendorA: VendorDefinition<VendorAAccount> = {
  id: 'VENDOR_A',
  secondCall: secondCallField('VENDOR_A'),
  metricsLabel: 'VENDOR_A',
  resultCodes: VENDOR_A_RESULT_CODES,
  config: vendorAConfig,
  createClient: (account, timing) => new VendorAClient(account, timing),
  simulator: () => builtInSimulator('VENDOR_A'),
};
