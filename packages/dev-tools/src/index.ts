/**
 * Ferry's development tools: the two vendor simulators (`ferry vendor-sim`, and the Ferry server in
 * development) and the development user-token signer (`ferry dev-token`). Never part of production.
 */

export { type DevelopmentTokenOptions, signDevelopmentToken } from './development-token.js';
export { SimulatorClock } from './simulator/simulator-clock.js';
export type { SimulatorOptions } from './simulator/simulator-server.js';
export { vendorASimulatorEnv, vendorBSimulatorEnv } from './simulator-env.js';
export { generateVendorAAccount, VendorASimulator, type VendorASimulatorAccount } from './vendor-a/simulator.js';
export {
  generateVendorBAccount,
  VendorBSimulator,
  type VendorBSimulatorAccount,
  type VendorBSimulatorOptions,
  vendorBPublicKeyText,
} from './vendor-b/simulator.js';
