import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * One row per issued PDF: who, which document, through which vendor, where it is stored and until
 * when it is kept. deleted_at is set when retention removed the object; the record stays.
 */
export const certificateIssuancesMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table certificate_issuances (
        id text primary key,
        authentication_state_id text not null unique references certificate_authentication_states (id),
        user_id text not null,
        assignment_id text references assignments (id),
        vendor text not null check (vendor in ('VENDOR_A', 'VENDOR_B')),
        document text not null check (document in ('resident-certificate', 'resident-abstract', 'family-relations')),
        object_key text not null,
        byte_size integer not null,
        vendor_reference text,
        created_at bigint not null,
        expires_at bigint not null,
        deleted_at bigint
      )`.execute(db);
    await sql`create index certificate_issuances_user on certificate_issuances (user_id, created_at)`.execute(db);
    await sql`create index certificate_issuances_expiry on certificate_issuances (expires_at)`.execute(db);
  },
  async down(db) {
    await sql`drop table certificate_issuances`.execute(db);
  },
});
