import { PassThrough, type Readable } from 'node:stream';
import { ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../errors/domain-error.js';
import { extendBodyDeadline } from '../http/body-deadline.js';
import { type AssetDelivery, PRIVATE_CACHE_CONTROL } from '../storage/objects/asset-delivery.js';
import type { AssetEncodings } from '../storage/objects/asset-encodings.js';
import {
  assetHashOfKey,
  InvalidObjectKeyError,
  isUpdateAssetKey,
  urlPathToObjectKey,
} from '../storage/objects/object-key.js';
import { type ObjectStore, UploadRejected } from '../storage/objects/object-store.js';
import type { ObjectUrlSigner } from '../storage/objects/object-url-signer.js';
import { StorageFull } from '../storage/objects/storage-full.js';

export const OBJECTS_PREFIX = '/objects/';

export interface ObjectRoutesOptions {
  store: ObjectStore;
  signer: ObjectUrlSigner;
  delivery: AssetDelivery;
  encodings: AssetEncodings;
  /** Set when uploads come through this server (the local store): the most one upload may be. */
  uploadLimitBytes: number | undefined;
  /** The body deadline of an upload whose signed URL checked out (UPLOAD_TIMEOUT_MS). */
  uploadTimeoutMs: number;
}

/** The key named by the raw request path; `request.url` is still percent-encoded. */
function keyOf(request: FastifyRequest): string {
  const rawPath = request.url.split('?', 1)[0]!.slice(OBJECTS_PREFIX.length);
  try {
    return urlPathToObjectKey(rawPath);
  } catch (error) {
    if (error instanceof InvalidObjectKeyError) {
      throw new InvalidKey(`The object path is not a valid key: ${error.message}.`);
    }
    throw error;
  }
}

class InvalidKey extends DomainError {
  override name = 'InvalidKey';
  constructor(message: string) {
    super('invalid', 'INVALID_OBJECT_KEY', message);
  }
}

class ObjectNotFound extends DomainError {
  override name = 'ObjectNotFound';
  constructor() {
    super('not-found', 'NOT_FOUND', 'No object exists at this URL.');
  }
}

class UploadTooLarge extends DomainError {
  override name = 'UploadTooLarge';
  constructor(limit: number) {
    super('too-large', 'PAYLOAD_TOO_LARGE', `This upload may be at most ${limit} bytes; nothing was stored.`, {
      limit,
    });
  }
}

const forbidden = (reason: string) =>
  new DomainError(
    'forbidden',
    'FORBIDDEN',
    reason === 'expired'
      ? 'This object URL has expired; ask for a new one.'
      : 'This object is private: it is reachable only through a valid signed URL.',
    { reason },
  );

type Query = Record<string, string | undefined>;

/** Bytes of any media type: the object's own (update assets) or the one it was uploaded with. */
const objectBytes = {
  description: 'The object, with the content type it was stored with',
  content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } },
};

/**
 * The objects' routes: a wildcard key, the signature and expiry in the query (no schema: the signed
 * URL is checked as sent, never coerced). Refusals are the common error body.
 */
const readSchema: FastifySchema = {
  summary: 'An object: update assets are public and immutable; any other key needs a signed, unexpired URL',
  tags: ['objects'],
  response: {
    200: objectBytes,
    226: {
      description:
        'IM Used: a BSDIFF40 patch from the launch bundle of the update the device runs (A-IM: bsdiff and Expo-Current-Update-ID), with IM: bsdiff and expo-base-update-id',
      content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
    },
    304: z.null(),
    400: ErrorBody,
    403: ErrorBody,
    404: ErrorBody,
  },
};

/**
 * `/objects/<key>`: update assets (`updates/…`) are public and immutable; every other key needs an
 * HMAC-signed, unexpired URL. With the local store, signed PUTs upload objects here as well.
 */
export async function objectRoutes(app: FastifyInstance, options: ObjectRoutesOptions): Promise<void> {
  const { store, signer, delivery } = options;

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = keyOf(request);
    if (!isUpdateAssetKey(key)) {
      const query = request.query as Query;
      const check = signer.check({ method: 'GET', key, expires: query.expires }, query.signature);
      if (!check.ok) throw forbidden(check.reason);
      const object = request.method === 'HEAD' ? await store.head(key) : await store.get(key);
      if (!object) throw new ObjectNotFound();
      reply
        .header('content-type', object.contentType)
        .header('content-length', object.size)
        .header('etag', object.etag)
        .header('cache-control', PRIVATE_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff');
      if ('body' in object) return reply.send(object.body);
      return reply.send();
    }
    return delivery.serve(key, request, reply);
  };

  app.route({
    method: 'GET',
    url: `${OBJECTS_PREFIX}*`,
    exposeHeadRoute: false,
    schema: readSchema,
    handler: serve,
  });
  app.route({ method: 'HEAD', url: `${OBJECTS_PREFIX}*`, schema: readSchema, handler: serve });

  const maxBytes = options.uploadLimitBytes;
  if (maxBytes === undefined) return;

  // Upload bodies are any media type and are streamed to disk, never parsed or buffered.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.route({
    method: 'PUT',
    url: `${OBJECTS_PREFIX}*`,
    schema: {
      summary: 'Upload an object through a signed URL (local object store only); any media type',
      tags: ['objects'],
      response: {
        200: z.null().meta({ description: 'The object was already stored with these bytes' }),
        201: z.null().meta({ description: 'Stored' }),
        400: ErrorBody,
        403: ErrorBody,
        413: ErrorBody,
        507: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const key = keyOf(request);
      const query = request.query as Query;
      const contentType = request.headers['content-type'] ?? '';
      const size =
        query.size === undefined ? undefined : /^\d{1,15}$/.test(query.size) ? Number(query.size) : Number.NaN;
      if (Number.isNaN(size)) throw forbidden('invalid');
      const check = signer.check(
        { method: 'PUT', key, expires: query.expires, contentType, sha256: query.sha256, size },
        query.signature,
      );
      if (!check.ok) throw forbidden(check.reason);
      // An update asset is content-addressed: whatever was signed, its bytes must hash to its key.
      const keyHash = assetHashOfKey(key);
      if (isUpdateAssetKey(key) && (keyHash === undefined || query.sha256 !== keyHash)) throw forbidden('invalid');
      // Signed for: the body may now take as long as a large upload on a slow link does; until here
      // it had the short deadline of every other request (http/body-deadline.ts).
      extendBodyDeadline(request, reply, options.uploadTimeoutMs);

      // A URL signed for a size admits that many bytes and no more: reading stops there, so an
      // oversized body costs the server at most the signed size (then the connection is closed,
      // since the rest of the body is never read).
      const limit = size === undefined ? maxBytes : Math.min(size, maxBytes);
      // Past the limit, the rest of the body is never read, so the connection cannot carry another request.
      const refuse = (bytes: number | undefined) => {
        reply.header('connection', 'close');
        return size !== undefined && size <= maxBytes
          ? new UploadRejected(
              'size-mismatch',
              `The upload has ${bytes === undefined ? `more than ${size}` : bytes} bytes, ${size} were signed`,
            )
          : new UploadTooLarge(limit);
      };
      const declared = Number(request.headers['content-length'] ?? Number.NaN);
      if (declared > limit) throw refuse(declared);
      // Piped through a stream of its own: when the store stops reading, it destroys that stream,
      // not the request, so the socket stays open long enough to carry the 413.
      const body = ((request.body as Readable | undefined) ?? request.raw).pipe(new PassThrough());
      try {
        const { created } = await store.putStream(key, body, {
          contentType,
          sha256: query.sha256,
          size,
          maxBytes: limit,
        });
        const stored = await store.head(key);
        if (stored) reply.header('etag', stored.etag);
        // The publisher waits for the brotli and gzip forms, so no device ever waits for them.
        if (isUpdateAssetKey(key)) await options.encodings.prepare(key);
        return reply.code(created ? 201 : 200).send();
      } catch (error) {
        if (error instanceof InvalidObjectKeyError)
          throw new InvalidKey(`The object cannot be stored: ${error.message}.`);
        if (error instanceof UploadRejected && error.reason === 'too-large') throw refuse(undefined);
        // The store stopped reading part-way: the rest of the body cannot be left on the connection.
        if (error instanceof StorageFull) reply.header('connection', 'close');
        throw error;
      }
    },
  });
}
