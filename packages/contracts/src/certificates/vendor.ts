import { z } from 'zod';

/**
 * The request field a vendor's authentication state travels in: the first answer carries it, and
 * the second call sends it back unchanged (stepData: an opaque string; twoWayInfo: TwoWayInfo).
 */
export const SECOND_CALL_FIELDS = ['stepData', 'twoWayInfo'] as const;
export type SecondCallField = (typeof SECOND_CALL_FIELDS)[number];

/** What the API and its clients know of a vendor: its id, and the field its second call carries. */
export interface VendorFacts {
  readonly id: string;
  readonly secondCall: SecondCallField;
}

/**
 * The issuing vendors, defined once. Everything else derives from this list: the request and
 * assignment schemas, the clients' second call, the server's vendor registry (one definition per
 * vendor, which must name every id here), metrics labels; storage keeps the id without checking it
 * (docs/decisions.md, "Enumerations live in contracts"). Adding one: docs/certificates.md, "Adding a vendor".
 */
export const CERTIFICATE_VENDOR_FACTS = [
  { id: 'VENDOR_A', secondCall: 'stepData' },
  { id: 'VENDOR_B', secondCall: 'twoWayInfo' },
] as const satisfies readonly VendorFacts[];

export type CertificateVendor = (typeof CERTIFICATE_VENDOR_FACTS)[number]['id'];
export const CERTIFICATE_VENDORS: readonly CertificateVendor[] = CERTIFICATE_VENDOR_FACTS.map((vendor) => vendor.id);
export const CertificateVendor = z.enum(CERTIFICATE_VENDORS);

/** What a client uses when the user did not come from an assignment. */
export const DEFAULT_CERTIFICATE_VENDOR: CertificateVendor = 'VENDOR_A';

/** The facts of a vendor of the list; undefined for an id that is not on it. */
export function vendorFacts<V extends string>(
  vendors: readonly VendorFacts[],
  id: V,
): (VendorFacts & { readonly id: V }) | undefined {
  return vendors.find((vendor): vendor is VendorFacts & { readonly id: V } => vendor.id === id);
}

/** The field a built-in vendor's second call carries its authentication state in. */
export const secondCallField = (vendor: CertificateVendor): SecondCallField =>
  (vendorFacts(CERTIFICATE_VENDOR_FACTS, vendor) as VendorFacts).secondCall;
