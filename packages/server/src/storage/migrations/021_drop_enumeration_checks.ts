import { type Kysely, sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Enumerations live in contracts (docs/decisions.md, "Enumerations live in contracts"): storage
 * no longer checks documents, vendors and operator roles, so a new one is stored without
 * rebuilding a table. The application validates them (the API's schemas are built from the
 * contracts' lists and the vendor registry); the database keeps keys, NOT NULL, foreign keys,
 * indexes and every other CHECK. Among those stay the update policy's range (the specification
 * enforces it in storage as well as in the API) and the platforms and channels, which the update
 * protocol fixes.
 *
 * PostgreSQL drops the seven constraints in place, under the names it gave them (`<table>_<column>_check`).
 * SQLite cannot drop a constraint: each of the five tables is rebuilt once without it, the way
 * https://sqlite.org/lang_altertable.html#otheralter prescribes (foreign keys off, one transaction
 * that holds the write lock, copy, drop, rename, indexes again, foreign_key_check). Same columns,
 * keys and rows, so a previous version reads and writes the rebuilt tables unchanged.
 *
 * No `down`: the checks would refuse what may have been stored since.
 */
export const dropEnumerationChecksMigration: EngineMigration = (engine) => ({
  async up(db) {
    if (engine === 'postgres') {
      await sql`alter table assignments drop constraint assignments_certificate_vendor_check`.execute(db);
      await sql`alter table certificate_authentication_states drop constraint certificate_authentication_states_vendor_check`.execute(
        db,
      );
      await sql`alter table certificate_authentication_states drop constraint certificate_authentication_states_document_check`.execute(
        db,
      );
      await sql`alter table certificate_issuances drop constraint certificate_issuances_vendor_check`.execute(db);
      await sql`alter table certificate_issuances drop constraint certificate_issuances_document_check`.execute(db);
      await sql`alter table operator_tokens drop constraint operator_tokens_role_check`.execute(db);
      await sql`alter table operator_sessions drop constraint operator_sessions_role_check`.execute(db);
      return;
    }
    await withoutForeignKeys(db, async () => {
      await sql`
        create table assignments_021 (
          id text primary key,
          user_id text not null check (length(user_id) between 1 and 255),
          certificate_vendor text not null,
          title text,
          created_at bigint not null
        )`.execute(db);
      await sql`insert into assignments_021 select id, user_id, certificate_vendor, title, created_at from assignments`.execute(
        db,
      );
      await sql`drop table assignments`.execute(db);
      await sql`alter table assignments_021 rename to assignments`.execute(db);
      await sql`create index assignments_user on assignments (user_id, created_at)`.execute(db);

      await sql`
        create table certificate_authentication_states_021 (
          id text primary key,
          state_hash text not null unique,
          user_id text not null,
          vendor text not null,
          document text not null,
          provider text not null,
          assignment_id text references assignments (id),
          status text not null check (status in ('pending', 'completing', 'issued')),
          lease_until bigint,
          expires_at bigint not null,
          created_at bigint not null
        )`.execute(db);
      await sql`
        insert into certificate_authentication_states_021
        select id, state_hash, user_id, vendor, document, provider, assignment_id, status, lease_until, expires_at,
          created_at
        from certificate_authentication_states`.execute(db);
      await sql`drop table certificate_authentication_states`.execute(db);
      await sql`alter table certificate_authentication_states_021 rename to certificate_authentication_states`.execute(
        db,
      );
      await sql`create index certificate_authentication_states_expiry on certificate_authentication_states (expires_at)`.execute(
        db,
      );

      await sql`
        create table certificate_issuances_021 (
          id text primary key,
          authentication_state_id text not null unique references certificate_authentication_states (id),
          user_id text not null,
          assignment_id text references assignments (id),
          vendor text not null,
          document text not null,
          object_key text not null,
          byte_size integer not null,
          vendor_reference text,
          created_at bigint not null,
          expires_at bigint not null,
          deleted_at bigint
        )`.execute(db);
      await sql`
        insert into certificate_issuances_021
        select id, authentication_state_id, user_id, assignment_id, vendor, document, object_key, byte_size,
          vendor_reference, created_at, expires_at, deleted_at
        from certificate_issuances`.execute(db);
      await sql`drop table certificate_issuances`.execute(db);
      await sql`alter table certificate_issuances_021 rename to certificate_issuances`.execute(db);
      await sql`create index certificate_issuances_user on certificate_issuances (user_id, created_at)`.execute(db);
      await sql`create index certificate_issuances_expiry on certificate_issuances (expires_at)`.execute(db);

      await sql`
        create table operator_tokens_021 (
          id text primary key,
          name text not null unique,
          role text not null,
          token_hash text not null unique,
          created_at bigint not null,
          created_by text not null,
          revoked_at bigint,
          last_used_at bigint
        )`.execute(db);
      await sql`
        insert into operator_tokens_021
        select id, name, role, token_hash, created_at, created_by, revoked_at, last_used_at from operator_tokens`.execute(
        db,
      );
      await sql`drop table operator_tokens`.execute(db);
      await sql`alter table operator_tokens_021 rename to operator_tokens`.execute(db);

      await sql`
        create table operator_sessions_021 (
          id_hash text primary key,
          kind text not null check (kind in ('token', 'oidc')),
          token_id text references operator_tokens (id),
          subject text not null,
          name text not null,
          role text not null,
          created_at bigint not null,
          expires_at bigint not null
        )`.execute(db);
      await sql`
        insert into operator_sessions_021
        select id_hash, kind, token_id, subject, name, role, created_at, expires_at from operator_sessions`.execute(db);
      await sql`drop table operator_sessions`.execute(db);
      await sql`alter table operator_sessions_021 rename to operator_sessions`.execute(db);
      await sql`create index operator_sessions_token on operator_sessions (token_id)`.execute(db);
    });
  },
});

/**
 * SQLite: `rebuild` in one transaction that takes the write lock first, with foreign keys off on
 * this connection (a dropped parent table would otherwise be checked, or cascade); the keys are
 * checked before the commit and switched back as they were after it. The migrator gives SQLite
 * migrations no transaction of their own, which is what lets the pragma take effect here.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the schema they create exists.
async function withoutForeignKeys(db: Kysely<any>, rebuild: () => Promise<void>): Promise<void> {
  const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  const enforced = rows[0]?.foreign_keys === 1;
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await rebuild();
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    if (enforced) await sql`pragma foreign_keys = on`.execute(db);
  }
}
