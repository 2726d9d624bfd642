import { randomBytes, randomUUID } from 'node:crypto';
import { type AppView, appManifestPath, DEFAULT_APP } from '@ferry/contracts';
import type { Kysely } from 'kysely';
import { credentialHash } from '../auth/operator-credential.js';
import { DomainError } from '../errors/domain-error.js';
import { type Executor, withWriteTransaction } from '../storage/locked-transaction.js';
import type { AppsTable, DatabaseSchema } from '../storage/schema.js';
import { toJson } from '../storage/schema.js';
import { type AppKeyVault, SealedKeyUnreadable } from './app-key-vault.js';

/** What an app release token looks like: recognisable in a log scanner, never confused with an operator token. */
export const APP_RELEASE_TOKEN_PREFIX = 'ferry_rt_';
export const looksLikeAppReleaseToken = (value: string): boolean => value.startsWith(APP_RELEASE_TOKEN_PREFIX);

/** An app as stored: its signing key sealed (app-key-vault.ts); the default app's is the configured one (null here). */
export interface StoredApp {
  slug: string;
  name: string;
  createdAt: number;
  archivedAt: number | null;
  keyId: string;
  certificate: string | null;
  sealedKey: string | null;
}

export class AppExists extends DomainError {
  override name = 'AppExists';
  constructor(slug: string) {
    super('conflict', 'APP_EXISTS', `An app with the slug '${slug}' exists already (slugs are never reused).`, {
      app: slug,
    });
  }
}

const toApp = (row: AppsTable): StoredApp => ({
  slug: row.slug,
  name: row.name,
  createdAt: Number(row.created_at),
  archivedAt: row.archived_at === null ? null : Number(row.archived_at),
  keyId: row.key_id,
  certificate: row.certificate,
  sealedKey: row.signing_key,
});

/** An app as the API shows it; the default app's key id is the configured one. */
export const appView = (app: StoredApp, defaultKeyId: string): AppView => ({
  slug: app.slug,
  name: app.name,
  createdAt: new Date(app.createdAt).toISOString(),
  archivedAt: app.archivedAt === null ? null : new Date(app.archivedAt).toISOString(),
  keyId: app.slug === DEFAULT_APP ? defaultKeyId : app.keyId,
  manifestPath: appManifestPath(app.slug),
});

async function audit(
  db: Executor,
  app: string,
  type: string,
  actor: string,
  details: Record<string, unknown>,
  at: number,
) {
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      type,
      actor,
      channel: null,
      platform: null,
      runtime_version: null,
      release_id: null,
      details: toJson(details),
      created_at: at,
      app_id: app,
    })
    .execute();
}

/**
 * Apps and their release tokens in the database (migration 024). Changes are audited in the same
 * transaction, as events of the app they concern. A release token is shown once; only its SHA-256
 * is kept.
 */
export class AppStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<StoredApp[]> {
    const rows = await this.db.selectFrom('apps').selectAll().orderBy('created_at').orderBy('slug').execute();
    return rows.map(toApp);
  }

  async find(slug: string): Promise<StoredApp | undefined> {
    const row = await this.db.selectFrom('apps').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row && toApp(row);
  }

  /** Creates an app with its first release token, in one transaction; the token is returned once. */
  async create(
    app: Pick<StoredApp, 'slug' | 'name' | 'keyId' | 'certificate' | 'sealedKey'>,
    actor: string,
  ): Promise<{ app: StoredApp; releaseToken: string }> {
    const at = this.now();
    return withWriteTransaction(this.db, async (trx) => {
      if (await trx.selectFrom('apps').select('slug').where('slug', '=', app.slug).executeTakeFirst())
        throw new AppExists(app.slug);
      await trx
        .insertInto('apps')
        .values({
          slug: app.slug,
          name: app.name,
          created_at: at,
          archived_at: null,
          key_id: app.keyId,
          certificate: app.certificate,
          signing_key: app.sealedKey,
        })
        .execute();
      await audit(trx, app.slug, 'app.created', actor, { name: app.name, keyId: app.keyId }, at);
      const releaseToken = await insertReleaseToken(trx, app.slug, 'release-token', actor, at);
      return { app: { ...app, createdAt: at, archivedAt: null }, releaseToken: releaseToken.token };
    });
  }

  /** Archives an app: its devices are still served; nothing more is published or changed. Undefined: no such app. */
  async archive(slug: string, actor: string): Promise<StoredApp | undefined> {
    const at = this.now();
    return withWriteTransaction(this.db, async (trx) => {
      const row = await trx.selectFrom('apps').selectAll().where('slug', '=', slug).executeTakeFirst();
      if (!row) return undefined;
      if (row.archived_at !== null) return toApp(row);
      await trx.updateTable('apps').set({ archived_at: at }).where('slug', '=', slug).execute();
      await audit(trx, slug, 'app.archived', actor, {}, at);
      return toApp({ ...row, archived_at: at });
    });
  }

  /** Replaces an app's signing key and certificate. Undefined: no such app. */
  async rotateKey(
    slug: string,
    key: Pick<StoredApp, 'keyId' | 'certificate' | 'sealedKey'>,
    actor: string,
  ): Promise<StoredApp | undefined> {
    const at = this.now();
    return withWriteTransaction(this.db, async (trx) => {
      const row = await trx.selectFrom('apps').selectAll().where('slug', '=', slug).executeTakeFirst();
      if (!row) return undefined;
      await trx
        .updateTable('apps')
        .set({ key_id: key.keyId, certificate: key.certificate, signing_key: key.sealedKey })
        .where('slug', '=', slug)
        .execute();
      await audit(trx, slug, 'app.key_rotated', actor, { keyId: key.keyId, previousKeyId: row.key_id }, at);
      return toApp({ ...row, key_id: key.keyId, certificate: key.certificate, signing_key: key.sealedKey });
    });
  }

  /**
   * Seals every app key that is not under the vault's current secret with it (a rotation of
   * APP_KEYS_SECRET), in one transaction: a key that opens with neither secret changes nothing.
   */
  async reseal(vault: AppKeyVault, actor: string): Promise<{ resealed: string[]; current: number }> {
    const at = this.now();
    return withWriteTransaction(this.db, async (trx) => {
      const rows = await trx
        .selectFrom('apps')
        .select(['slug', 'signing_key'])
        .where('signing_key', 'is not', null)
        .orderBy('slug')
        .execute();
      const resealed: string[] = [];
      for (const { slug, signing_key: sealed } of rows) {
        if (vault.sealedWithCurrent(sealed!)) continue;
        let pem: string;
        try {
          pem = vault.open(slug, sealed!);
        } catch (error) {
          throw new SealedKeyUnreadable(`app ${slug}: ${(error as Error).message}`);
        }
        await trx
          .updateTable('apps')
          .set({ signing_key: vault.seal(slug, pem) })
          .where('slug', '=', slug)
          .execute();
        await audit(trx, slug, 'app.key_resealed', actor, { kekId: vault.kekId }, at);
        resealed.push(slug);
      }
      return { resealed, current: rows.length - resealed.length };
    });
  }

  /** Another release token for an app (CI of another repository, a rotation); returned once. */
  async createReleaseToken(slug: string, name: string, actor: string): Promise<{ id: string; token: string }> {
    return withWriteTransaction(this.db, (trx) => insertReleaseToken(trx, slug, name, actor, this.now()));
  }

  /** The active release token with this value, with its app. */
  async releaseToken(token: string): Promise<{ id: string; name: string; app: string } | undefined> {
    const row = await this.db
      .selectFrom('app_release_tokens')
      .select(['id', 'name', 'app_id'])
      .where('token_hash', '=', credentialHash(token))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { id: row.id, name: row.name, app: row.app_id };
  }

  /** Revokes a release token of an app; false when the app has no such active token. */
  async revokeReleaseToken(slug: string, id: string, actor: string): Promise<boolean> {
    const at = this.now();
    return withWriteTransaction(this.db, async (trx) => {
      const revoked = await trx
        .updateTable('app_release_tokens')
        .set({ revoked_at: at })
        .where('app_id', '=', slug)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(revoked.numUpdatedRows) === 0) return false;
      await audit(trx, slug, 'app.release_token_revoked', actor, { tokenId: id }, at);
      return true;
    });
  }
}

async function insertReleaseToken(trx: Executor, slug: string, name: string, actor: string, at: number) {
  const token = `${APP_RELEASE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const id = randomUUID();
  await trx
    .insertInto('app_release_tokens')
    .values({
      id,
      app_id: slug,
      name,
      token_hash: credentialHash(token),
      created_at: at,
      created_by: actor,
      revoked_at: null,
    })
    .execute();
  await audit(trx, slug, 'app.release_token_created', actor, { tokenId: id, name }, at);
  return { id, token };
}
