import type { VendorSimulatorDefinition } from '../simulator/vendor-simulator-definition.js';
import { vendorASimulatorEnv } from '../simulator-env.js';
import { generateVendorAAccount, VendorASimulator, type VendorASimulatorAccount } from './simulator.js';

/** The VENDOR_A simulator (`ferry vendor-sim a`). */
export const vendorASimulator: VendorSimulatorDefinition<VendorASimulatorAccount> = {
  vendor: 'VENDOR_A',
  cliName: 'a',
  style: 'stepData style',
  account: async (env = {}) => {
    const generated = generateVendorAAccount();
    return {
      userId: env.VENDOR_A_USER_ID || generated.userId,
      hkey: env.VENDOR_A_HKEY || generated.hkey,
      ekey: env.VENDOR_A_EKEY ? Buffer.from(env.VENDOR_A_EKEY, 'utf8') : generated.ekey,
    };
  },
  create: (account, options) => new VendorASimulator(account, options),
  env: vendorASimulatorEnv,
};
