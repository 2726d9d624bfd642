import type { CertificateDocument } from '@ferry/contracts';

/** One issued certificate PDF: who, what, through which vendor, where it is stored, until when. */
export interface Issuance {
  id: string;
  authenticationStateId: string;
  userId: string;
  assignmentId: string | null;
  vendor: string;
  document: CertificateDocument;
  objectKey: string;
  byteSize: number;
  vendorReference: string | null;
  createdAt: number;
  /** End of retention: the PDF is removed after this. */
  expiresAt: number;
  deletedAt: number | null;
}

export interface IssuanceStore {
  /** Records the issuance and marks its authentication state issued, atomically. */
  record(issuance: Issuance): Promise<void>;
  findByAuthenticationState(stateId: string): Promise<Issuance | undefined>;
  /** Issuances past retention whose PDF has not been removed yet. */
  expired(now: number, limit: number): Promise<Issuance[]>;
  markDeleted(id: string, now: number): Promise<void>;
}
