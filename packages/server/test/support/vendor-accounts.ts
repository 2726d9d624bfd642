import { BUILT_IN_VENDORS } from '../../src/vendors/built-in-vendors.js';
import type { VendorRegistry } from '../../src/vendors/vendor-registry.js';

/** Where a vendor's account points in these environments: a host that never resolves. */
export const vendorAccountUrl = (vendor: string): string =>
  `https://${vendor.toLowerCase().replaceAll('_', '-')}.invalid`;

/**
 * The variables that give every vendor of the registry an account, as a production instance must
 * have: each vendor's simulator names them (the ones `ferry vendor-sim` prints), pointed at
 * vendorAccountUrl. A vendor added to the registry is configured here without naming it.
 */
export async function vendorAccountsEnv(registry: VendorRegistry = BUILT_IN_VENDORS): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const definition of registry.definitions) {
    const simulator = await definition.simulator();
    Object.assign(env, simulator.env(vendorAccountUrl(definition.id), await simulator.account()));
  }
  return env;
}
