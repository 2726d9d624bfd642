import fs from 'node:fs';
import { DEFAULT_APP } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AppDirectory } from '../auth/operator-access.js';
import type { SecretSource, UpdatesConfig } from '../config/updates-config.js';
import { DomainError } from '../errors/domain-error.js';
import type { AppSignerSource } from '../ota/manifest/manifest-service.js';
import { type ManifestSigner, NodeManifestSigner } from '../signing/manifest-signer.js';
import { validateSigningMaterial } from '../signing/signing-material.js';
import { AppKeyVault, parseKeyEncryptionKey } from './app-key-vault.js';
import { type AppStore, looksLikeAppReleaseToken, type StoredApp } from './app-store.js';

/** How long an app's row (or its absence) is trusted without reading it again; changes here forget it at once. */
const APP_ROW_TTL_MS = 5_000;
/** Slugs remembered, found or not: a crowd asking for made-up apps costs a read per slug per TTL, never memory without end. */
const APP_ROWS_KEPT = 10_000;

export class AppKeysUnavailable extends DomainError {
  override name = 'AppKeysUnavailable';
  constructor() {
    super(
      'unavailable',
      'APP_KEYS_UNAVAILABLE',
      "Apps other than the default one need APP_KEYS_SECRET (or APP_KEYS_SECRET_PATH): the secret their signing keys are sealed with. It is not configured, or it cannot open this app's key.",
    );
  }
}

const secretBytes = (source: SecretSource): Buffer =>
  parseKeyEncryptionKey(source.inline ?? fs.readFileSync(source.path!, 'utf8'), source.variable);

/** The vault of the configured key-encryption key (and the one being retired), if one is configured. */
export function appKeyVaultOf(config: UpdatesConfig): AppKeyVault | undefined {
  if (!config.appKeysSecret) return undefined;
  const previous = config.appKeysPreviousSecret;
  return new AppKeyVault(secretBytes(config.appKeysSecret), previous && secretBytes(previous));
}

type Row = { app: StoredApp } | { app: undefined };

/** What a signer was made from: a row with other values holds another key (a reseal changes neither). */
const keyOf = (app: StoredApp): string => `${app.keyId}\n${app.certificate}`;

/**
 * The apps as the rest of the server asks about them: whether one exists (operator access, every
 * release-control request), an app's release tokens, and each app's manifest signer (the manifest
 * path). Rows are kept briefly (APP_ROW_TTL_MS) and forgotten at once on a change here or, through
 * the release notifications, on another instance. Signers are made once per app and key; a track
 * load past the row's TTL reads the row again, so a key rotated outside any instance (`ferry-server
 * apps rotate-key` on SQLite) is followed too, and `onKeyChanged` hears of it.
 */
export class AppRegistry implements AppDirectory, AppSignerSource {
  private readonly rows: LRUCache<string, Row>;
  private readonly signers = new Map<string, { signer: ManifestSigner; key: string }>();
  private readonly loading = new Map<string, Promise<ManifestSigner | undefined>>();
  private defaultSigner: ManifestSigner | undefined;
  /** Counts forget(): a signer made from a row read before one is not kept. */
  private forgets = 0;
  /** Told when a row read again holds another key than the app's signer (the manifests signed with it are stale). */
  onKeyChanged: (app: string) => void = () => {};

  constructor(
    readonly store: AppStore,
    readonly vault: AppKeyVault | undefined,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'error'>,
    rowTtlMs = APP_ROW_TTL_MS,
  ) {
    this.rows = new LRUCache<string, Row>({ max: APP_ROWS_KEPT, ttl: rowTtlMs });
  }

  /** The configured signer of the default app (the OTA area makes it). */
  setDefaultSigner(signer: ManifestSigner): void {
    this.defaultSigner = signer;
  }

  get defaultKeyId(): string {
    return this.defaultSigner?.keyId ?? 'main';
  }

  private async row(slug: string): Promise<StoredApp | undefined> {
    const kept = this.rows.get(slug);
    if (kept) return kept.app;
    const app = await this.store.find(slug);
    this.rows.set(slug, { app });
    return app;
  }

  async find(slug: string): Promise<{ slug: string; archivedAt: number | null } | undefined> {
    return this.row(slug);
  }

  list(): Promise<StoredApp[]> {
    return this.store.list();
  }

  async releaseToken(token: string): Promise<{ id: string; name: string; app: string } | undefined> {
    return looksLikeAppReleaseToken(token) ? this.store.releaseToken(token) : undefined;
  }

  loaded(app: string): ManifestSigner | undefined {
    return app === DEFAULT_APP ? this.defaultSigner : this.signers.get(app)?.signer;
  }

  /**
   * An app's signer, made once however many requests wait; undefined when there is no such app.
   * Past the row's TTL the row is read again first, and a changed key makes a new signer.
   */
  load(app: string): Promise<ManifestSigner | undefined> {
    if (app === DEFAULT_APP) return Promise.resolve(this.defaultSigner);
    const kept = this.signers.get(app);
    if (kept && this.rows.has(app)) return Promise.resolve(kept.signer);
    let pending = this.loading.get(app);
    if (!pending) {
      pending = this.make(app).finally(() => this.loading.delete(app));
      this.loading.set(app, pending);
    }
    return pending;
  }

  private async make(slug: string): Promise<ManifestSigner | undefined> {
    const forgets = this.forgets;
    const kept = this.signers.get(slug);
    let app: StoredApp | undefined;
    try {
      app = await this.row(slug);
    } catch (error) {
      // The database is away: the key this instance holds is still the app's as far as it can know.
      if (kept) return kept.signer;
      throw error;
    }
    if (!app) return undefined;
    if (kept?.key === keyOf(app)) return kept.signer;
    if (!this.vault || !app.sealedKey || !app.certificate) throw new AppKeysUnavailable();
    let pem: string;
    try {
      pem = this.vault.open(slug, app.sealedKey);
    } catch (error) {
      this.log.error({ app: slug, reason: (error as Error).message }, 'cannot open the signing key of an app');
      throw new AppKeysUnavailable();
    }
    const { privateKey } = validateSigningMaterial(
      pem,
      app.certificate,
      { key: `the signing key of app ${slug}`, certificate: `the certificate of app ${slug}` },
      new Date(),
    );
    const signer = new NodeManifestSigner(privateKey, app.certificate, app.keyId);
    // A change that came in meanwhile (forget) must not be undone by this older read.
    if (this.forgets !== forgets) return signer;
    this.signers.set(slug, { signer, key: keyOf(app) });
    if (kept) {
      this.log.info({ app: slug, keyId: app.keyId }, 'an app signs with a new key');
      this.onKeyChanged(slug);
    }
    return signer;
  }

  /** An app changed (created, archived, re-keyed) here or on another instance: read it again. */
  forget(app: string): void {
    this.forgets++;
    this.rows.delete(app);
    this.signers.delete(app);
  }

  /** The vault, or 503 when no key-encryption key is configured. */
  requireVault(): AppKeyVault {
    if (!this.vault) throw new AppKeysUnavailable();
    return this.vault;
  }
}
