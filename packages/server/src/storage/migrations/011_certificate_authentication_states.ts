import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * One row per started simple authentication, written when the first call answers. The vendor's
 * state itself is never stored, only a keyed hash of it (state_hash), so a row cannot be turned
 * back into anything the vendor would accept, nor into personal data.
 * status: pending → completing (a second call holds the lease) → issued.
 */
export const certificateAuthenticationStatesMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table certificate_authentication_states (
        id text primary key,
        state_hash text not null unique,
        user_id text not null,
        vendor text not null check (vendor in ('VENDOR_A', 'VENDOR_B')),
        document text not null check (document in ('resident-certificate', 'resident-abstract', 'family-relations')),
        provider text not null,
        assignment_id text references assignments (id),
        status text not null check (status in ('pending', 'completing', 'issued')),
        lease_until bigint,
        expires_at bigint not null,
        created_at bigint not null
      )`.execute(db);
    await sql`create index certificate_authentication_states_expiry on certificate_authentication_states (expires_at)`.execute(
      db,
    );
  },
  async down(db) {
    await sql`drop table certificate_authentication_states`.execute(db);
  },
});
