import { createHash } from 'node:crypto';
import type { VendorAuthState } from '../vendors/vendor-client.js';

/**
 * The stored stand-in of a vendor's authentication state. The raw state is never stored (an
 * opaque stepData could embed personal data); its SHA-256 is enough to find the binding again and
 * to notice any change, since both vendors' states carry vendor-generated randomness.
 */
export function hashVendorState(state: VendorAuthState): string {
  const canonical =
    state.vendor === 'VENDOR_A'
      ? `VENDOR_A\n${state.stepData}`
      : `VENDOR_B\n${state.twoWayInfo.jobIndex}\n${state.twoWayInfo.threadIndex}\n${state.twoWayInfo.jti}\n${state.twoWayInfo.twoWayTimestamp}`;
  return createHash('sha256').update(canonical, 'utf8').digest('base64url');
}
