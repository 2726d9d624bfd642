import { type CertificateApi, type FunnelEntry, resolveFunnelEntry } from '@ferry/certificate-flow';

/**
 * How the person arrived: from an assignment (`?assignmentId=`), whose certificateVendor decides the
 * vendor, or from the electronic-certificate menu (VENDOR_A). The rule is certificate-flow's
 * resolveFunnelEntry, the one the native funnel uses too; this only reads the page's address.
 */
export function resolveEntry(search: string, api: CertificateApi): Promise<FunnelEntry> {
  const assignmentId = new URLSearchParams(search).get('assignmentId');
  return resolveFunnelEntry(assignmentId ? { kind: 'assignment', assignmentId } : { kind: 'menu' }, api);
}
