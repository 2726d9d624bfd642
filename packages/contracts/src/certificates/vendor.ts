import { z } from 'zod';

/** The two interchangeable issuing vendors. An assignment chooses one; the certificate menu defaults to VENDOR_A. */
export const CERTIFICATE_VENDORS = ['VENDOR_A', 'VENDOR_B'] as const;
export const CertificateVendor = z.enum(CERTIFICATE_VENDORS);
export type CertificateVendor = z.infer<typeof CertificateVendor>;

/** What a client uses when the user did not come from an assignment. */
export const DEFAULT_CERTIFICATE_VENDOR: CertificateVendor = 'VENDOR_A';
