import type { CertificateDocument, ProviderCode, TwoWayInfo } from '@ferry/contracts';
import type { SensitiveDigits } from '../certificates/sensitive-digits.js';

/** The person, as the vendor needs it: the plain front part and the decrypted back part. */
export interface PersonIdentity {
  front: string;
  back: SensitiveDigits;
}

interface RequestBase {
  provider: ProviderCode;
  identity: PersonIdentity;
}

/** A residence document (the `resident` form): the person and their address. */
export interface ResidentDocumentRequest extends RequestBase {
  document: CertificateDocument;
  form: 'resident';
  address: { sido: string; sigg: string };
}

/** A family-register document (the `family` form): the person and family members' names. */
export interface FamilyDocumentRequest extends RequestBase {
  document: CertificateDocument;
  form: 'family';
  family: { father: string | null; mother: string | null; spouse: string | null; child: string | null };
}

/**
 * One issuance request, vendor-neutral. The vendor client turns it into its own wire format: the
 * form decides the fields, the document the vendor's product.
 */
export type VendorIssuanceRequest = ResidentDocumentRequest | FamilyDocumentRequest;

/**
 * The authentication state a vendor hands back after the first call, in the client's shape: the
 * value of the vendor's second-call field (contracts' SecondCallField).
 */
export type VendorAuthState = { field: 'stepData'; stepData: string } | { field: 'twoWayInfo'; twoWayInfo: TwoWayInfo };

export interface IssuedDocument {
  pdf: Buffer;
  /** The vendor's own reference of the issuance (a receipt number), for support. */
  vendorReference: string | null;
}

/**
 * What went wrong at the vendor, in the service's words:
 * - pending: the user has not approved yet; the same second call may be retried;
 * - expired: the authentication timed out or was already used; start again;
 * - state-invalid: the vendor does not recognise the authentication state;
 * - rejected: the vendor refused the person or the user cancelled (carries the vendor's code);
 * - unavailable: the vendor failed, answered garbage, or our account is misconfigured;
 * - timeout: no answer within the vendor timeout.
 */
export type VendorFailureKind = 'pending' | 'expired' | 'state-invalid' | 'rejected' | 'unavailable' | 'timeout';

/** One sentence per kind, the same for every vendor: never the vendor's own text, which may echo personal data. */
const FAILURE_MESSAGES: Record<VendorFailureKind, string> = {
  pending: 'The user has not approved the authentication yet.',
  expired: 'The authentication expired or was already used.',
  'state-invalid': 'The vendor does not recognise this authentication.',
  rejected: 'The vendor refused the request.',
  unavailable: 'The vendor reported a failure.',
  timeout: 'The vendor did not answer in time.',
};

export class VendorFailure extends Error {
  override name = 'VendorFailure';
  constructor(
    readonly kind: VendorFailureKind,
    /** The vendor's own result code, when it gave one. Codes never carry personal data. */
    readonly vendorCode: string | null,
    message: string = FAILURE_MESSAGES[kind],
  ) {
    super(message);
  }
}

/** One HTTP exchange with a vendor: VENDOR_B's OAuth token, the first call, the second call. */
export type VendorOperation = 'token' | 'start-authentication' | 'complete-issuance';

/** Told the duration of every HTTP exchange with a vendor, however it ended (metrics). */
export type VendorTiming = (operation: VendorOperation, seconds: number) => void;

/** Per-call options: the deadline shared by every HTTP exchange of one vendor operation. */
export interface VendorCallOptions {
  signal: AbortSignal;
}

/**
 * The VendorClient port. Each vendor's definition (vendor-definition.ts) makes its adapter, and
 * has a simulator that speaks the same wire format over HTTP.
 */
export interface VendorClient {
  readonly vendor: string;
  /** The vendor's own code for a provider; undefined when its table does not map the provider. */
  providerCode(provider: ProviderCode): string | undefined;
  /** First call: asks the provider app to authenticate the person; resolves to the state to send back. */
  startAuthentication(request: VendorIssuanceRequest, options: VendorCallOptions): Promise<VendorAuthState>;
  /** Second call: after the user approved, issues the document. */
  completeIssuance(
    request: VendorIssuanceRequest,
    state: VendorAuthState,
    options: VendorCallOptions,
  ): Promise<IssuedDocument>;
}
