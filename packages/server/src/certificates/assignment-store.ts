import type { CertificateVendor } from '@ferry/contracts';

export interface AssignmentRecord {
  id: string;
  userId: string;
  certificateVendor: CertificateVendor;
  title: string | null;
  createdAt: Date;
}

/** Persistence of assignments (one Kysely adapter serves SQLite and PostgreSQL). */
export interface AssignmentStore {
  insert(assignment: AssignmentRecord): Promise<void>;
  findById(id: string): Promise<AssignmentRecord | undefined>;
}
