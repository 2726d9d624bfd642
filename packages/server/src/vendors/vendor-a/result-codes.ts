import type { VendorFailureKind } from '../vendor-client.js';

/**
 * VENDOR_A error codes and what they mean for the issuance. `errCd` may be empty with the code
 * inside `errMsg` as `[CODE] …`. The AUTH-/STEP- codes are the ones our simulator uses for states
 * the public material only describes in words ("승인 대기"); verify them against the vendor contract.
 */
export const VENDOR_A_RESULT_CODES: Readonly<Record<string, VendorFailureKind>> = {
  'AUTH-WAIT': 'pending',
  'STEP-EXPIRED': 'expired',
  'STEP-USED': 'expired',
  'STEP-INVALID': 'state-invalid',
  'AUTH-CANCEL': 'rejected',
  'LOGIN-001': 'rejected',
  'LOGIN-002': 'rejected',
  'LOGIN-109': 'rejected',
  'LOGIN-999': 'rejected',
  '1201': 'rejected',
  '1202': 'rejected',
  'HYF-0002': 'unavailable',
  'HYF-9999': 'unavailable',
  HDM006: 'unavailable',
  HDM009: 'unavailable',
  HDM012: 'unavailable',
  HDM016: 'unavailable',
};

/** The waiting message of an unapproved authentication, when the vendor sends no code. */
const PENDING_TEXT = /승인\s*대기|대기\s*중|approval pending/i;

export function vendorACodeOf(errCd: string, errMsg: string): string | null {
  if (errCd) return errCd;
  return /^\s*\[([A-Za-z0-9_-]{1,32})\]/.exec(errMsg)?.[1] ?? null;
}

/** Unknown codes count as a vendor failure (502), not as the person's fault. */
export function classifyVendorAError(errCd: string, errMsg: string): { kind: VendorFailureKind; code: string | null } {
  const code = vendorACodeOf(errCd, errMsg);
  const known = code ? VENDOR_A_RESULT_CODES[code] : undefined;
  if (known) return { kind: known, code };
  if (PENDING_TEXT.test(errMsg)) return { kind: 'pending', code };
  return { kind: 'unavailable', code };
}
