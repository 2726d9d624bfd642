import { type CertificateApi, CertificateApiError, type FunnelEntry } from '@ferry/certificate-flow';
import { DEFAULT_CERTIFICATE_VENDOR } from '@ferry/contracts';

/**
 * How the person arrived: from an assignment (`?assignmentId=`), whose certificateVendor decides the
 * vendor, or from the electronic-certificate menu, which uses the default vendor (VENDOR_A).
 */
export async function resolveEntry(search: string, api: CertificateApi): Promise<FunnelEntry> {
  const assignmentId = new URLSearchParams(search).get('assignmentId');
  if (!assignmentId) return { vendor: DEFAULT_CERTIFICATE_VENDOR, assignmentId: null };
  if (!/^[0-9a-f-]{36}$/i.test(assignmentId)) {
    throw new CertificateApiError(404, 'ASSIGNMENT_NOT_FOUND', 'The assignment link is not valid.');
  }
  const assignment = await api.getAssignment(assignmentId);
  return { vendor: assignment.certificateVendor, assignmentId: assignment.id };
}
