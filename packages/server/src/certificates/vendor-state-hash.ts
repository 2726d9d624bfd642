import { createHash } from 'node:crypto';
import type { VendorAuthState } from '../vendors/vendor-client.js';

/**
 * The stored stand-in of a vendor's authentication state. The raw state is never stored (an
 * opaque stepData could embed personal data); its SHA-256 is enough to find the binding again and
 * to notice any change, since vendors' states carry vendor-generated randomness. The vendor's id
 * comes first, so equal states of two vendors never meet.
 */
export function hashVendorState(vendor: string, state: VendorAuthState): string {
  const canonical =
    state.field === 'stepData'
      ? `${vendor}\n${state.stepData}`
      : `${vendor}\n${state.twoWayInfo.jobIndex}\n${state.twoWayInfo.threadIndex}\n${state.twoWayInfo.jti}\n${state.twoWayInfo.twoWayTimestamp}`;
  return createHash('sha256').update(canonical, 'utf8').digest('base64url');
}
