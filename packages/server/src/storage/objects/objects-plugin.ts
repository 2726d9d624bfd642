import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { ObjectsConfig } from '../../config/object-store-config.js';
import { objectRoutes } from '../../routes/objects.js';
import { AssetDelivery } from './asset-delivery.js';
import { AssetEncodings } from './asset-encodings.js';
import { LocalObjectStore } from './local-object-store.js';
import type { ObjectStore } from './object-store.js';
import { ObjectUrlSigner } from './object-url-signer.js';

const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Object storage (local files or S3): update assets and certificate PDFs. */
    objectStore: ObjectStore;
    /** The compressed forms of update assets, made when they arrive (upload or publish). */
    assetEncodings: AssetEncodings;
    /** Serves update assets; a publish preloads a new release's assets through it. */
    assetDelivery: AssetDelivery;
  }
}

export interface ObjectsPluginOptions {
  config: ObjectsConfig;
  /** Base of this server's own /objects URLs (PUBLIC_URL/objects), read per call. */
  objectsBaseUrl: () => string;
  /** How long an upload's body may take once its signed URL is checked (UPLOAD_TIMEOUT_MS). */
  uploadTimeoutMs: number;
  now?: () => Date;
}

/**
 * Object storage, wired in one place: the adapter the configuration asks for, the signer of this
 * server's /objects URLs, and the /objects routes (serving, and uploads when the objects are local
 * files). The store is shared with the feature plugins through `app.objectStore`.
 */
export const objectsPlugin = fp<ObjectsPluginOptions>(
  async (app, options) => {
    const { store: config } = options.config;
    let secret = config.kind === 'local' ? config.urlSecret : undefined;
    if (!secret) {
      // Only reachable outside production (config refuses a local store without a secret there):
      // signed URLs then live as long as this process.
      secret = randomBytes(32);
      if (config.kind === 'local')
        app.log.warn('no OBJECT_URL_SIGNING_SECRET: signed object URLs end with this process');
    }
    const signer = new ObjectUrlSigner(secret, options.now);
    let store: ObjectStore;
    if (config.kind === 's3') {
      // Loaded only when S3 is configured: the AWS SDK is the largest import of the server's start-up.
      const { S3ObjectStore } = await import('./s3-object-store.js');
      store = new S3ObjectStore(config.s3, { now: options.now });
    } else {
      const local = new LocalObjectStore({ directory: config.directory, baseUrl: options.objectsBaseUrl, signer });
      const sweep = async (startingUp: boolean) => {
        const swept = await local.files.sweepPartials({ startingUp });
        if (swept > 0) app.log.warn({ swept }, 'removed partial uploads left by a process that ended');
      };
      await sweep(true);
      // Partials of another host's crashed process are orphans only once idle for a while.
      const timer = setInterval(
        () => void sweep(false).catch((err) => app.log.warn({ err }, 'partial sweep failed')),
        SWEEP_INTERVAL_MS,
      );
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
      store = local;
    }
    app.decorate('objectStore', store);
    const encodings = new AssetEncodings(store, app.log);
    app.decorate('assetEncodings', encodings);
    const delivery = new AssetDelivery(store, encodings, app.metrics);
    app.decorate('assetDelivery', delivery);

    // Encapsulated: the upload route's content-type parsers stay inside it.
    await app.register(objectRoutes, {
      store,
      signer,
      encodings,
      delivery,
      // With S3, uploads go to presigned S3 URLs; only local objects are uploaded through here.
      uploadLimitBytes: config.kind === 'local' ? options.config.uploadLimitBytes : undefined,
      uploadTimeoutMs: options.uploadTimeoutMs,
    });
  },
  { name: 'ferry-objects', dependencies: ['ferry-http', 'ferry-metrics'] },
);
