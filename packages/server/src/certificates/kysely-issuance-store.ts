import type { CertificateDocument } from '@ferry/contracts';
import type { Selectable } from 'kysely';
import type { Database } from '../storage/database.js';
import type { CertificateIssuancesTable } from '../storage/schema.js';
import type { Issuance, IssuanceStore } from './issuance-store.js';

const toIssuance = (row: Selectable<CertificateIssuancesTable>): Issuance => ({
  id: row.id,
  authenticationStateId: row.authentication_state_id,
  userId: row.user_id,
  assignmentId: row.assignment_id,
  vendor: row.vendor,
  document: row.document as CertificateDocument,
  objectKey: row.object_key,
  byteSize: Number(row.byte_size),
  vendorReference: row.vendor_reference,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
});

export class KyselyIssuanceStore implements IssuanceStore {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async record(issuance: Issuance): Promise<void> {
    const row = {
      id: issuance.id,
      authentication_state_id: issuance.authenticationStateId,
      user_id: issuance.userId,
      assignment_id: issuance.assignmentId,
      vendor: issuance.vendor,
      document: issuance.document,
      object_key: issuance.objectKey,
      byte_size: issuance.byteSize,
      vendor_reference: issuance.vendorReference,
      created_at: issuance.createdAt,
      expires_at: issuance.expiresAt,
      deleted_at: null,
    };
    if (this.database.engine === 'postgres') {
      // One statement, atomic on its own: BEGIN/INSERT/UPDATE/COMMIT held a pooled connection for
      // four round trips, and under load each round trip waits for an event-loop turn, so second
      // calls queued for connections. SQLite (synchronous, in-process) keeps the transaction.
      await this.db
        .with('issued', (db) => db.insertInto('certificate_issuances').values(row))
        .updateTable('certificate_authentication_states')
        .set({ status: 'issued', lease_until: null })
        .where('id', '=', issuance.authenticationStateId)
        .execute();
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('certificate_issuances').values(row).execute();
      await trx
        .updateTable('certificate_authentication_states')
        .set({ status: 'issued', lease_until: null })
        .where('id', '=', issuance.authenticationStateId)
        .execute();
    });
  }

  async findByAuthenticationState(stateId: string): Promise<Issuance | undefined> {
    const row = await this.db
      .selectFrom('certificate_issuances')
      .selectAll()
      .where('authentication_state_id', '=', stateId)
      .executeTakeFirst();
    return row && toIssuance(row);
  }

  async expired(now: number, limit: number): Promise<Issuance[]> {
    const rows = await this.db
      .selectFrom('certificate_issuances')
      .selectAll()
      .where('expires_at', '<=', now)
      .where('deleted_at', 'is', null)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map(toIssuance);
  }

  async markDeleted(id: string, now: number): Promise<void> {
    await this.db.updateTable('certificate_issuances').set({ deleted_at: now }).where('id', '=', id).execute();
  }
}
