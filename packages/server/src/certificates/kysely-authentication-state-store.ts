import type { CertificateDocument, ProviderCode } from '@ferry/contracts';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database } from '../storage/database.js';
import type { CertificateAuthenticationStatesTable, DatabaseSchema } from '../storage/schema.js';
import type { AuthenticationState, AuthenticationStateStore, BoundClaim } from './authentication-state-store.js';

const toState = (row: Selectable<CertificateAuthenticationStatesTable>): AuthenticationState => ({
  id: row.id,
  stateHash: row.state_hash,
  userId: row.user_id,
  vendor: row.vendor,
  document: row.document as CertificateDocument,
  provider: row.provider as ProviderCode,
  assignmentId: row.assignment_id,
  status: row.status,
  leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
  expiresAt: Number(row.expires_at),
  createdAt: Number(row.created_at),
});

/** A state a second call may take: pending, or completing under a lease that ran out (its holder died). */
const claimable = (now: number) => (eb: ExpressionBuilder<DatabaseSchema, 'certificate_authentication_states'>) =>
  eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'completing'), eb('lease_until', '<', now)])]);

/**
 * Authentication states live in the `ephemeral` handle (asynchronous commit on PostgreSQL): a
 * state or lease lost in a database crash leaves a flow the user restarts (AUTH_STATE_INVALID) or
 * a state that is pending again, both handled already; and the issuance that marks a state issued
 * commits synchronously, flushing every write made here before it. It saves a WAL flush on two of
 * the flow's three writes.
 */
export class KyselyAuthenticationStateStore implements AuthenticationStateStore {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.ephemeral;
  }

  async record(state: AuthenticationState): Promise<void> {
    await this.db
      .insertInto('certificate_authentication_states')
      .values({
        id: state.id,
        state_hash: state.stateHash,
        user_id: state.userId,
        vendor: state.vendor,
        document: state.document,
        provider: state.provider,
        assignment_id: state.assignmentId,
        status: state.status,
        lease_until: state.leaseUntil,
        expires_at: state.expiresAt,
        created_at: state.createdAt,
      })
      .execute();
  }

  async findByHash(stateHash: string): Promise<AuthenticationState | undefined> {
    const row = await this.db
      .selectFrom('certificate_authentication_states')
      .selectAll()
      .where('state_hash', '=', stateHash)
      .executeTakeFirst();
    return row && toState(row);
  }

  async findById(id: string): Promise<AuthenticationState | undefined> {
    const row = await this.db
      .selectFrom('certificate_authentication_states')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toState(row);
  }

  async claim(id: string, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('certificate_authentication_states')
      .set({ status: 'completing', lease_until: leaseUntil })
      .where('id', '=', id)
      .where(claimable(now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async claimBound(claim: BoundClaim): Promise<string | undefined> {
    const row = await this.db
      .updateTable('certificate_authentication_states')
      .set({ status: 'completing', lease_until: claim.leaseUntil })
      .where('state_hash', '=', claim.stateHash)
      .where('user_id', '=', claim.userId)
      .where('vendor', '=', claim.vendor)
      .where('document', '=', claim.document)
      .where('provider', '=', claim.provider)
      .where('assignment_id', claim.assignmentId === null ? 'is' : '=', claim.assignmentId)
      .where('expires_at', '>', claim.now)
      .where(claimable(claim.now))
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async release(id: string): Promise<void> {
    await this.db
      .updateTable('certificate_authentication_states')
      .set({ status: 'pending', lease_until: null })
      .where('id', '=', id)
      .where('status', '=', 'completing')
      .execute();
  }

  async deleteStale(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('certificate_authentication_states')
      .where('status', '!=', 'issued')
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
