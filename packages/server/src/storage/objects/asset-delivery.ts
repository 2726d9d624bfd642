import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { DomainError } from '../../errors/domain-error.js';
import { validateObjectKey } from './object-key.js';
import type { ObjectStore, StoredObject } from './object-store.js';

/** Update assets never change at their URL (Expo Updates protocol: content at a URL is fixed). */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Private objects (certificate PDFs) must not stay in any cache. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

class AssetNotFound extends DomainError {
  override name = 'AssetNotFound';
  constructor() {
    super('not-found', 'NOT_FOUND', 'No asset exists at this URL.');
  }
}

export type ContentEncoding = 'br' | 'gzip' | 'identity';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Already-compressed formats gain nothing from another pass. */
const INCOMPRESSIBLE =
  /^(image\/(?!svg)|video\/|audio\/|font\/woff2?|application\/(zip|gzip|x-gzip|zstd|x-7z-compressed|x-rar|x-bzip2|pdf|wasm))/i;
const MIN_COMPRESSIBLE_BYTES = 1024;
/** Sources above this are served as they are rather than read whole into memory to compress. */
const MAX_COMPRESSIBLE_BYTES = 64 * 1024 * 1024;

export const isCompressible = (object: Pick<StoredObject, 'contentType' | 'size'>): boolean =>
  object.size >= MIN_COMPRESSIBLE_BYTES &&
  object.size <= MAX_COMPRESSIBLE_BYTES &&
  !INCOMPRESSIBLE.test(object.contentType);

/** The encoding to answer with: brotli, then gzip, when the client allows them; identity otherwise. */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
  const [best] = (negotiator.encodings as (available: string[], options?: { preferred?: string[] }) => string[])(
    ['br', 'gzip', 'identity'],
    { preferred: ['br', 'gzip', 'identity'] },
  );
  return best === 'br' || best === 'gzip' ? best : 'identity';
}

/** Does an If-None-Match header match this ETag (weak comparison, RFC 9110 §13.1.2)? */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || bare(candidate) === bare(etag));
}

/** A representation's ETag: the object's, tagged with its encoding so each variant validates on its own. */
export const etagFor = (etag: string, encoding: ContentEncoding): string =>
  encoding === 'identity' ? etag : etag.replace(/"$/, `-${encoding}"`);

const etagToken = (etag: string): string => etag.replace(/^W\//, '').replace(/[^A-Za-z0-9_-]/g, '') || 'x';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function compress(body: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: 9 });
  return brotli(body, {
    params: {
      // Compressed once per asset and then served for a year: spend the CPU, up to a point.
      [zlib.constants.BROTLI_PARAM_QUALITY]: body.length <= 4 * 1024 * 1024 ? 11 : 9,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/**
 * Serves public update assets: content type, immutable caching, ETag/304, HEAD, and brotli or gzip
 * when asked. A compressed variant is made once, on first demand, and kept in the object store
 * itself under `encoded/<encoding>/<etag>/<key>`, so every instance shares it and none recompresses.
 * Content at an asset key never changes, so what the store said about it is remembered: a request
 * costs one read of the bytes (none for a 304), not a metadata round trip to S3 first.
 */
export class AssetDelivery {
  private readonly inflight = new Map<string, Promise<StoredObject | undefined>>();
  /** Heads of existing assets and variants; only found objects, since a missing one may be uploaded. */
  private readonly heads = new LRUCache<string, StoredObject>({ max: 20_000 });

  constructor(
    private readonly store: ObjectStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  static variantKey(key: string, object: StoredObject, encoding: 'br' | 'gzip'): string {
    return validateObjectKey(`encoded/${encoding}/${etagToken(object.etag)}/${key}`);
  }

  async serve(key: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const source = await this.headOf(key);
    if (!source) throw new AssetNotFound();

    const compressible = isCompressible(source);
    let encoding = compressible ? negotiateEncoding(request.headers['accept-encoding']) : 'identity';
    let representation: StoredObject = source;
    if (encoding !== 'identity') {
      const variant = await this.variant(key, source, encoding);
      if (variant) representation = variant;
      else encoding = 'identity';
    }

    const etag = etagFor(source.etag, encoding);
    reply
      .header('content-type', source.contentType)
      .header('cache-control', IMMUTABLE_CACHE_CONTROL)
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff');
    if (compressible) reply.header('vary', 'accept-encoding');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();

    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    reply.header('content-length', representation.size);
    if (request.method === 'HEAD') return reply.send();
    const opened = await this.store.get(representation.key);
    if (!opened) throw new AssetNotFound();
    return reply.send(opened.body);
  }

  private async headOf(key: string): Promise<StoredObject | undefined> {
    const known = this.heads.get(key);
    if (known) return known;
    const head = await this.store.head(key);
    if (head) this.heads.set(key, head);
    return head;
  }

  /** The stored compressed variant, made on first demand; undefined when it cannot be made. */
  private variant(key: string, source: StoredObject, encoding: 'br' | 'gzip'): Promise<StoredObject | undefined> {
    const variantKey = AssetDelivery.variantKey(key, source, encoding);
    const known = this.heads.get(variantKey);
    if (known) return Promise.resolve(known);
    const pending = this.inflight.get(variantKey);
    if (pending) return pending;
    const work = (async () => {
      const existing = await this.headOf(variantKey);
      if (existing) return existing;
      const opened = await this.store.get(key);
      if (!opened) return undefined;
      const compressed = await compress(await readAll(opened.body), encoding);
      await this.store.put(variantKey, compressed, { contentType: source.contentType });
      return this.headOf(variantKey);
    })()
      .catch((error: unknown) => {
        this.log.warn({ err: error, key, encoding }, 'could not prepare a compressed asset; serving it uncompressed');
        return undefined;
      })
      .finally(() => this.inflight.delete(variantKey));
    this.inflight.set(variantKey, work);
    return work;
  }
}
