import type { VendorSimulatorDefinition } from '../simulator/vendor-simulator-definition.js';
import { vendorBSimulatorEnv } from '../simulator-env.js';
import { generateVendorBAccount, VendorBSimulator, type VendorBSimulatorAccount } from './simulator.js';

/** The VENDOR_B simulator (`ferry vendor-sim b`). */
export const vendorBSimulator: VendorSimulatorDefinition<VendorBSimulatorAccount> = {
  vendor: 'VENDOR_B',
  cliName: 'b',
  style: 'twoWayInfo style',
  account: async (env = {}) => {
    const generated = await generateVendorBAccount();
    return {
      ...generated,
      clientId: env.VENDOR_B_CLIENT_ID || generated.clientId,
      clientSecret: env.VENDOR_B_CLIENT_SECRET || generated.clientSecret,
    };
  },
  create: (account, options) => new VendorBSimulator(account, options),
  env: vendorBSimulatorEnv,
};
