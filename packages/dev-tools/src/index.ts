/**
 * Ferry's development tools: a simulator per certificate vendor (`ferry vendor-sim`, and the Ferry
 * server in development) and the development user-token signer (`ferry dev-token`). Never part of
 * production.
 */

export { type DevelopmentTokenOptions, signDevelopmentToken } from './development-token.js';
export { simulatedPdf } from './simulator/simulated-pdf.js';
export { SimulatorClock } from './simulator/simulator-clock.js';
export { type SimulatorOptions, VendorSimulator } from './simulator/simulator-server.js';
export type { SimulatedSession } from './simulator/simulator-sessions.js';
export type { SimulatorEnv, VendorSimulatorDefinition } from './simulator/vendor-simulator-definition.js';
export { vendorASimulatorEnv, vendorBSimulatorEnv } from './simulator-env.js';
export { generateVendorAAccount, VendorASimulator, type VendorASimulatorAccount } from './vendor-a/simulator.js';
export {
  generateVendorBAccount,
  VendorBSimulator,
  type VendorBSimulatorAccount,
  type VendorBSimulatorOptions,
  vendorBPublicKeyText,
} from './vendor-b/simulator.js';
export { VENDOR_SIMULATORS } from './vendor-simulators.js';
