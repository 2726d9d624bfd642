import type { CertificateVendor } from '@ferry/contracts';
import type { VendorSimulatorDefinition } from '@ferry/dev-tools';

/**
 * The simulator @ferry/dev-tools ships for a built-in vendor. Imported only here and only when
 * called: a server with vendor accounts never loads the simulators.
 */
export async function builtInSimulator(vendor: CertificateVendor): Promise<VendorSimulatorDefinition> {
  const { VENDOR_SIMULATORS } = await import('@ferry/dev-tools');
  return VENDOR_SIMULATORS[vendor];
}
