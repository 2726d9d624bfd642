import { z } from 'zod';
import { httpUrl } from '../../../src/config/variable-schemas.js';
import type { VendorDefinition } from '../../../src/vendors/vendor-definition.js';
import { type TestVendorAccount, TestVendorClient } from './client.js';
import { TEST_VENDOR_RESULT_CODES } from './result-codes.js';
import { testVendorSimulator } from './simulator.js';
import { TEST_VENDOR } from './wire.js';

/** The test suite's third vendor: the one export of its folder, as vendors/<name>/definition.ts is. */
export const testVendor: VendorDefinition<TestVendorAccount> = {
  id: TEST_VENDOR,
  secondCall: 'stepData',
  metricsLabel: TEST_VENDOR,
  resultCodes: TEST_VENDOR_RESULT_CODES,
  config: {
    required: ['TEST_VENDOR_URL', 'TEST_VENDOR_KEY'],
    variables: {
      TEST_VENDOR_URL: httpUrl('TEST_VENDOR_URL').optional(),
      TEST_VENDOR_KEY: z.string().min(8, 'TEST_VENDOR_KEY must be at least 8 characters').optional(),
    },
    defaultAuthTtlSeconds: 120,
    account: (values) => ({ baseUrl: values.TEST_VENDOR_URL as string, key: values.TEST_VENDOR_KEY as string }),
  },
  createClient: (account, timing) => new TestVendorClient(account, timing),
  simulator: async () => testVendorSimulator,
};
