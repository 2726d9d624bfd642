import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_APP } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import type { Track } from '../../src/ota/app-track.js';
import { type AssetOwner, AssetUrls } from '../../src/ota/assets/asset-urls.js';
import { KyselyReleaseStore } from '../../src/ota/kysely-release-store.js';
import type { ReleaseStore } from '../../src/ota/release-store.js';
import { generateSigningKey } from '../../src/signing/development-signing-key.js';
import type { VendorRegistry } from '../../src/vendors/vendor-registry.js';
import { createTestDatabase, type EngineName, type TestDatabase } from './engines.js';
import { describeUndeclared, type OpenApiDocument, type UndeclaredAnswer, watchAnswers } from './openapi-answers.js';
import { servedAt } from './served-urls.js';

export const TEST_RELEASE_TOKEN = 'test-release-token-0123456789abcdef';

/**
 * Limits a test is not about, raised (decisions.md, "Tests never fail on a slow machine"): every
 * test client shares 127.0.0.1, so refused credentials would add up across a file's tests, and a
 * loaded machine must not turn a slow body or an idle wait into a 408. Tests about them set their own.
 */
export const RAISED_HTTP_LIMITS: Record<string, string> = {
  AUTH_FAILURE_LIMIT_PER_MINUTE: '1000000',
  HEADERS_TIMEOUT_MS: String(HANG_GUARD_MS),
  BODY_TIMEOUT_MS: String(HANG_GUARD_MS),
  IDLE_TIMEOUT_MS: String(HANG_GUARD_MS),
};

/** The code-signing pair test servers sign manifests with, unless a test configures its own. */
export const TEST_SIGNING = generateSigningKey('Ferry test server');

/** Collects every log line the server writes, so tests can assert what reaches (and never reaches) logs. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
  entries(): Array<Record<string, unknown>> {
    return this.lines.map((line) => JSON.parse(line));
  }
}

export interface TestServer {
  app: FastifyInstance;
  url: string;
  token: string;
  logs: LogCapture;
  database: TestDatabase;
  /** The server's DATA_DIR (local objects live in DATA_DIR/objects). */
  dataDir: string;
  /** The code-signing certificate of TEST_SIGNING, which manifests are signed with by default. */
  certificatePem: string;
  /**
   * The default app's release records, read the way the OTA area reads them (over the server's own
   * database): tracks and ids without an app are the default app's, as every client's were before apps.
   */
  releaseStore: DefaultAppReleases;
  /** fetch against the server with the release token set. */
  authed(path: string, init?: RequestInit): Promise<Response>;
  /** Where this server sends devices for a release's asset (a release stores no URL). */
  assetUrl(owner: Omit<AssetOwner, 'app'> & { app?: string }, hash: string): string;
  /**
   * Removes the undeclared answers with this status from what close() reports, and returns them:
   * for a test that provokes one on purpose (an injected fault's 500), which it then asserts.
   */
  takeUndeclared(status: number): UndeclaredAnswer[];
  close(): Promise<void>;
}

type TrackOfDefaultApp = Omit<Track, 'app'>;

/** A release store's reads, for the default app. */
export interface DefaultAppReleases {
  newest(track: TrackOfDefaultApp): ReturnType<ReleaseStore['newest']>;
  timeline(track: TrackOfDefaultApp): ReturnType<ReleaseStore['timeline']>;
  list(track: TrackOfDefaultApp, limit: number): ReturnType<ReleaseStore['list']>;
  findById(id: string): ReturnType<ReleaseStore['findById']>;
  rollout: ReleaseStore['rollout'];
  count: ReleaseStore['count'];
}

export const defaultAppReleases = (store: ReleaseStore): DefaultAppReleases => ({
  newest: (track) => store.newest({ ...track, app: DEFAULT_APP }),
  timeline: (track) => store.timeline({ ...track, app: DEFAULT_APP }),
  list: (track, limit) => store.list({ ...track, app: DEFAULT_APP }, limit),
  findById: (id) => store.findById(DEFAULT_APP, id),
  rollout: (id) => store.rollout(id),
  count: () => store.count(),
});

export interface TestServerOptions {
  env?: Record<string, string>;
  logLevel?: string;
  now?: () => Date;
  /** Reuse a database another server created (several instances on one database). */
  database?: TestDatabase;
  configure?: (config: Config) => Config;
  /** The built web app to serve at `/` (default apps/web/dist). */
  webRoot?: string;
  /** The built release console to serve at /console/ (default apps/console/dist). */
  consoleRoot?: string;
  /** The vendors certificates are issued through (default: the built-in ones). */
  registry?: VendorRegistry;
}

/** Starts a real server on an ephemeral port over a database of its own. */
export async function startTestServer(engine: EngineName, options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase(engine));
  const logs = new LogCapture();
  // A DATA_DIR of its own (local objects live there), removed on close unless the test chose one.
  const dataDir = options.env?.DATA_DIR ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-data-'));
  let config = loadConfig(
    {
      ...RAISED_HTTP_LIMITS,
      OTA_RELEASE_TOKEN: TEST_RELEASE_TOKEN,
      ...(Object.keys(options.env ?? {}).some((name) => /^OTA_SIGNING_(KEY|CERT)(_PATH)?$/.test(name))
        ? {}
        : { OTA_SIGNING_KEY: TEST_SIGNING.privateKeyPem, OTA_SIGNING_CERT: TEST_SIGNING.certificatePem }),
      PORT: '0',
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      ...options.env,
    },
    { vendors: options.registry },
  );
  config = { ...config, database: database.target };
  if (options.configure) config = options.configure(config);
  const app = await buildApp({
    config,
    logger: pino({ level: options.logLevel ?? 'info' }, logs),
    now: options.now,
    webRoot: options.webRoot,
    consoleRoot: options.consoleRoot,
  });
  // Every answer is checked against the served OpenAPI document; close() fails on one it does not declare.
  const undeclared = watchAnswers(app.server, () => app.swagger() as unknown as OpenApiDocument);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // As a load balancer waits for /readyz: the cache is loaded and the manifest path warm.
  await app.startupWork.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const ownsDatabase = !options.database;
  const assetUrls = new AssetUrls(() => config.objects.assetPublicBaseUrl ?? `${url}/objects`);
  return {
    app,
    url,
    token: TEST_RELEASE_TOKEN,
    logs,
    database,
    dataDir: config.dataDir,
    certificatePem: TEST_SIGNING.certificatePem,
    releaseStore: defaultAppReleases(new KyselyReleaseStore(app.database)),
    assetUrl: (owner, hash) => assetUrls.of({ app: DEFAULT_APP, ...owner }, hash),
    takeUndeclared: (status) => {
      const taken = undeclared.filter((answer) => answer.status === status);
      undeclared.splice(0, undeclared.length, ...undeclared.filter((answer) => answer.status !== status));
      return taken;
    },
    authed: (path, init = {}) =>
      fetch(url + path, {
        ...init,
        ...(path === '/api/updates/release' && typeof init.body === 'string'
          ? { body: servedAt(init.body, config.objects.assetPublicBaseUrl ?? `${url}/objects`) }
          : {}),
        headers: { authorization: `Bearer ${TEST_RELEASE_TOKEN}`, 'content-type': 'application/json', ...init.headers },
      }),
    close: async () => {
      // Tests need no grace period: a client's keep-alive socket must not hold close() open.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      if (ownsDatabase) await database.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (undeclared.length > 0) {
        throw new Error(
          `The server gave ${undeclared.length} answer(s) its OpenAPI document (/docs/json) does not declare:\n${describeUndeclared(undeclared)}`,
        );
      }
    },
  };
}
