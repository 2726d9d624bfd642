import { CERTIFICATE_VENDORS, type CertificateVendor } from '@ferry/contracts';
import { vendorA } from './vendor-a/definition.js';
import { vendorB } from './vendor-b/definition.js';
import type { VendorDefinition } from './vendor-definition.js';
import { composeVendors } from './vendor-registry.js';

/** Every vendor contracts list, by its definition: the compiler refuses a vendor left out. */
const DEFINITIONS: Readonly<Record<CertificateVendor, VendorDefinition>> = {
  VENDOR_A: vendorA,
  VENDOR_B: vendorB,
};

/** The vendors Ferry ships, in the contracts' order. */
export const BUILT_IN_VENDORS = composeVendors(CERTIFICATE_VENDORS.map((id) => DEFINITIONS[id]));
