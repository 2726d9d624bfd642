import type { CertificateVendor } from '@ferry/contracts';
import type { VendorSimulatorDefinition } from './simulator/vendor-simulator-definition.js';
import { vendorASimulator } from './vendor-a/definition.js';
import { vendorBSimulator } from './vendor-b/definition.js';

/** A simulator for every vendor @ferry/contracts lists: the compiler refuses one left out. */
export const VENDOR_SIMULATORS: Readonly<Record<CertificateVendor, VendorSimulatorDefinition>> = {
  VENDOR_A: vendorASimulator,
  VENDOR_B: vendorBSimulator,
};
