import { createHash } from 'node:crypto';

const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * `certificates/<userId>/<issuanceId>.pdf`. A user id is whatever the identity provider put in
 * `sub`; one that is not a safe key segment is replaced by a stable hash of it.
 */
export function certificateObjectKey(userId: string, issuanceId: string): string {
  const segment = SAFE_SEGMENT.test(userId)
    ? userId
    : `u-${createHash('sha256').update(userId, 'utf8').digest('base64url')}`;
  return `certificates/${segment}/${issuanceId}.pdf`;
}
