import { randomUUID } from 'node:crypto';
import type { Assignment as BuiltInAssignment, CreateAssignmentRequest } from '@ferry/contracts';
import type { AssignmentRecord, AssignmentStore } from './assignment-store.js';
import { AssignmentNotFound, VendorMismatch } from './certificate-errors.js';

/** An assignment, whose vendor is any of the server's registry (the route's schema admits no other). */
export type Assignment = Omit<BuiltInAssignment, 'certificateVendor'> & { certificateVendor: string };
type NewAssignment = Omit<CreateAssignmentRequest, 'certificateVendor'> & { certificateVendor: string };

const toAssignment = (record: AssignmentRecord): Assignment => ({
  id: record.id,
  certificateVendor: record.certificateVendor,
  title: record.title,
  createdAt: record.createdAt.toISOString(),
});

export class AssignmentService {
  constructor(
    private readonly store: AssignmentStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Operator action: gives a user a certificate task through a chosen vendor. */
  async create(request: NewAssignment): Promise<Assignment & { userId: string }> {
    const record: AssignmentRecord = {
      id: randomUUID(),
      userId: request.userId,
      certificateVendor: request.certificateVendor,
      title: request.title ?? null,
      createdAt: this.now(),
    };
    await this.store.insert(record);
    return { ...toAssignment(record), userId: record.userId };
  }

  async getForUser(id: string, userId: string): Promise<Assignment> {
    const record = await this.store.findById(id);
    if (!record || record.userId !== userId) throw new AssignmentNotFound(id);
    return toAssignment(record);
  }

  /**
   * decisions §5: an assignment given with a certificate request must be the user's own and its
   * vendor must be the request's vendor.
   */
  async checkForIssuance(id: string, userId: string, vendor: string): Promise<void> {
    const assignment = await this.getForUser(id, userId);
    if (assignment.certificateVendor !== vendor) {
      throw new VendorMismatch(id, assignment.certificateVendor, vendor);
    }
  }
}
