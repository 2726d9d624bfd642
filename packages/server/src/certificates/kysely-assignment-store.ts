import type { Database } from '../storage/database.js';
import type { AssignmentRecord, AssignmentStore } from './assignment-store.js';

export class KyselyAssignmentStore implements AssignmentStore {
  constructor(private readonly database: Database) {}

  async insert(assignment: AssignmentRecord): Promise<void> {
    await this.database.db
      .insertInto('assignments')
      .values({
        id: assignment.id,
        user_id: assignment.userId,
        certificate_vendor: assignment.certificateVendor,
        title: assignment.title,
        created_at: assignment.createdAt.getTime(),
      })
      .execute();
  }

  async findById(id: string): Promise<AssignmentRecord | undefined> {
    const row = await this.database.db.selectFrom('assignments').selectAll().where('id', '=', id).executeTakeFirst();
    return (
      row && {
        id: row.id,
        userId: row.user_id,
        certificateVendor: row.certificate_vendor,
        title: row.title,
        createdAt: new Date(Number(row.created_at)),
      }
    );
  }
}
