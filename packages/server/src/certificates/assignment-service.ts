import { randomUUID } from 'node:crypto';
import type { Assignment, CertificateVendor, CreateAssignmentRequest } from '@ferry/contracts';
import { AppError } from '../http/app-error.js';
import type { AssignmentRecord, AssignmentStore } from './assignment-store.js';

const toAssignment = (record: AssignmentRecord): Assignment => ({
  id: record.id,
  certificateVendor: record.certificateVendor,
  title: record.title,
  createdAt: record.createdAt.toISOString(),
});

/** Another user's assignment is indistinguishable from a missing one: no probing of ids. */
const notFound = (id: string) =>
  new AppError(404, 'ASSIGNMENT_NOT_FOUND', 'No such assignment for this user.', { assignmentId: id });

export class AssignmentService {
  constructor(
    private readonly store: AssignmentStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Operator action: gives a user a certificate task through a chosen vendor. */
  async create(request: CreateAssignmentRequest): Promise<Assignment & { userId: string }> {
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
    if (!record || record.userId !== userId) throw notFound(id);
    return toAssignment(record);
  }

  /**
   * decisions §5: an assignment given with a certificate request must be the user's own and its
   * vendor must be the request's vendor.
   */
  async checkForIssuance(id: string, userId: string, vendor: CertificateVendor): Promise<void> {
    const assignment = await this.getForUser(id, userId);
    if (assignment.certificateVendor !== vendor) {
      throw new AppError(
        400,
        'VENDOR_MISMATCH',
        `This assignment is issued through ${assignment.certificateVendor}, not ${vendor}.`,
        { assignmentId: id, certificateVendor: assignment.certificateVendor, vendor },
      );
    }
  }
}
