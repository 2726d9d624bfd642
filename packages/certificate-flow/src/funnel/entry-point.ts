import { DEFAULT_CERTIFICATE_VENDOR } from '@ferry/contracts';
import type { CertificateApi } from '../api/certificate-api.js';
import { CertificateApiError } from '../api/certificate-api-error.js';
import type { AlertKind } from './alerts.js';
import type { FunnelEntry } from './funnel-state.js';

/** Where the person comes from: the electronic-certificate menu, or one of their assignments. */
export type FunnelEntryPoint = { kind: 'menu' } | { kind: 'assignment'; assignmentId: string };

/**
 * The spec's vendor rule for an entry point: the menu uses the default vendor (VENDOR_A); an
 * assignment uses its own certificateVendor, read from the server (never from the link).
 */
export async function resolveFunnelEntry(
  entry: FunnelEntryPoint,
  api: Pick<CertificateApi, 'getAssignment'>,
): Promise<FunnelEntry> {
  if (entry.kind === 'menu') return { vendor: DEFAULT_CERTIFICATE_VENDOR, assignmentId: null };
  if (!/^[0-9a-f-]{36}$/i.test(entry.assignmentId)) {
    throw new CertificateApiError(404, 'ASSIGNMENT_NOT_FOUND', 'The assignment link is not valid.');
  }
  const assignment = await api.getAssignment(entry.assignmentId);
  return { vendor: assignment.certificateVendor, assignmentId: assignment.id };
}

/** Why the funnel could not start, as one of the shared alerts. */
export function entryFailureAlert(error: unknown): AlertKind {
  if (!(error instanceof CertificateApiError)) return 'unexpected';
  if (error.status === 0) return 'network';
  if (error.status === 401) return 'signedOut';
  if (error.status === 403) return 'notCertified';
  if (error.status === 404) return 'assignmentNotFound';
  if (error.status === 429) return 'tooManyRequests';
  return 'unavailable';
}
