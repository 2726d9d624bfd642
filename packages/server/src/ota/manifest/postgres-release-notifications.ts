import { randomUUID } from 'node:crypto';
import { AppSlug, Channel, DEFAULT_APP, Platform, RuntimeVersion } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type pg from 'pg';
import { z } from 'zod';
import { type Database, loadPg } from '../../storage/database.js';
import type { Track } from '../app-track.js';

/** The PostgreSQL channel every instance listens on. */
export const RELEASE_NOTIFY_CHANNEL = 'ferry_release_published';
/** Shown in pg_stat_activity, so operators (and tests) can find the listener. */
export const LISTENER_APPLICATION_NAME = 'ferry-release-listener';

const TrackNotification = z.object({
  from: z.string(),
  /** Absent from a version before apps: the default app's track. */
  app: AppSlug.default(DEFAULT_APP),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
});
/** An app changed (its key, its archive state): every instance reads it again. */
const AppNotification = z.object({ from: z.string(), appChanged: AppSlug });
const Notification = z.union([AppNotification, TrackNotification]);

const MAX_BACKOFF_MS = 5000;

export interface ReleaseNotificationHandlers {
  /** Another instance stored a release on this track. */
  onTrack(track: Track): void;
  /** Another instance changed this app (its signing key, its archive state). */
  onApp?(app: string): void;
  /** The listener (re)connected: anything may have been missed while it was away. */
  onReset(): void;
}

/**
 * Cross-instance cache invalidation over PostgreSQL LISTEN/NOTIFY. One dedicated connection
 * listens (a pooled one would be handed to other queries); it reconnects with backoff and reports
 * every (re)connect, because notifications sent while it was away are lost.
 */
export class PostgresReleaseNotifications {
  private readonly instanceId = randomUUID();
  private client: pg.Client | undefined;
  private closing = false;
  private backoffMs = 100;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      url: string;
      database: Database;
      handlers: ReleaseNotificationHandlers;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Resolves once listening, or after the first failed attempt (retries continue in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closing) return;
    // In the URL: pg lets a connection string's parameters override the options beside it, and an
    // operator's URL may name its own application_name (which the pool's connections then carry).
    const url = new URL(this.options.url);
    url.searchParams.set('application_name', LISTENER_APPLICATION_NAME);
    const client = new (loadPg().Client)({ connectionString: url.toString(), keepAlive: true });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (this.closing) return;
      this.options.log.warn({ err: error }, 'release listener lost its PostgreSQL connection; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => this.receive(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${RELEASE_NOTIFY_CHANNEL}`);
      this.backoffMs = 100;
      this.options.handlers.onReset();
    } catch (error) {
      onLost(error as Error);
    }
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closing) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private receive(payload: string | undefined): void {
    let parsed: z.infer<typeof Notification>;
    try {
      parsed = Notification.parse(JSON.parse(payload ?? ''));
    } catch {
      this.options.log.warn('ignored a malformed release notification');
      return;
    }
    if (parsed.from === this.instanceId) return;
    if ('appChanged' in parsed) {
      this.options.handlers.onApp?.(parsed.appChanged);
      return;
    }
    this.options.handlers.onTrack({
      app: parsed.app,
      channel: parsed.channel,
      platform: parsed.platform,
      runtimeVersion: parsed.runtimeVersion,
    });
  }

  /** Tells every other instance that an app changed. Failures are logged, never thrown. */
  announceApp(app: string): void {
    this.notify(JSON.stringify({ from: this.instanceId, appChanged: app }), { app });
  }

  /** Tells every other instance that a track has a new release. Failures are logged, never thrown. */
  announce(track: Track): void {
    this.notify(JSON.stringify({ from: this.instanceId, ...track }), { track });
  }

  private notify(payload: string, about: Record<string, unknown>): void {
    sql`select pg_notify(${RELEASE_NOTIFY_CHANNEL}, ${payload})`
      .execute(this.options.database.db)
      .catch((error: unknown) => {
        this.options.log.warn({ err: error, ...about }, 'could not notify other instances of a change');
      });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}

/**
 * Tells every instance that an app changed, from outside any of them (`ferry-server apps`): they
 * forget its row and signer at once instead of at the row's TTL.
 */
export async function announceAppChange(database: Database, app: string): Promise<void> {
  const payload = JSON.stringify({ from: 'ferry-server apps', appChanged: app });
  await sql`select pg_notify(${RELEASE_NOTIFY_CHANNEL}, ${payload})`.execute(database.db);
}
