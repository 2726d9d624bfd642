import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/** A certificate task given to a user; its certificateVendor chooses the vendor of the issuance. */
export const assignmentsMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table assignments (
        id text primary key,
        user_id text not null check (length(user_id) between 1 and 255),
        certificate_vendor text not null check (certificate_vendor in ('VENDOR_A', 'VENDOR_B')),
        title text,
        created_at bigint not null
      )`.execute(db);
    await sql`create index assignments_user on assignments (user_id, created_at)`.execute(db);
  },
  async down(db) {
    await sql`drop table assignments`.execute(db);
  },
});
