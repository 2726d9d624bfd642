export interface AssignmentRecord {
  id: string;
  userId: string;
  /** A vendor of the server's registry; storage does not check it (migration 021). */
  certificateVendor: string;
  title: string | null;
  createdAt: Date;
}

/** Persistence of assignments (one Kysely adapter serves SQLite and PostgreSQL). */
export interface AssignmentStore {
  insert(assignment: AssignmentRecord): Promise<void>;
  findById(id: string): Promise<AssignmentRecord | undefined>;
}
