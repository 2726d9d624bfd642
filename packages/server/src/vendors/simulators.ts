/** The two vendor simulators, for `ferry vendor-sim` and for anything that runs them standalone. */

export { vendorASimulatorEnv, vendorBSimulatorEnv } from './simulator-env.js';
export { generateVendorAAccount, VendorASimulator, type VendorASimulatorAccount } from './vendor-a/simulator.js';
export {
  generateVendorBAccount,
  VendorBSimulator,
  type VendorBSimulatorAccount,
  type VendorBSimulatorOptions,
  vendorBPublicKeyText,
} from './vendor-b/simulator.js';
