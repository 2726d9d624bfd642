import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { DomainError } from '../../errors/domain-error.js';
import { patchRequestOf } from '../../ota/patches/patch-request.js';
import { SingleFlight } from '../../single-flight.js';
import { TurnPacer } from '../../turn-pacer.js';
import {
  type AssetEncodings,
  COMPRESSED_ENCODINGS,
  type CompressedEncoding,
  encodedKey,
  isCompressible,
} from './asset-encodings.js';
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

export type ContentEncoding = CompressedEncoding | 'identity';

/** How much of a kept asset is handed to a socket at a time. */
const SEND_SLICE_BYTES = 64 * 1024;

/**
 * The buffer as views of SEND_SLICE_BYTES, each after the first let through by `pace`: the
 * TurnPacer every download from memory shares. A loopback or LAN socket takes megabytes at once,
 * so without a pause a crowd's downloads would be copied whole into the kernel in the turn their
 * requests arrived; with a pause per download only, every download under way would still hand on
 * its next slice in the same turn. Shared, a turn hands on at most a pacer's slice of them,
 * however many devices are downloading (docs/decisions.md, "Served assets are kept in memory").
 */
export async function* slicesOf(
  bytes: Buffer,
  sent: (bytes: number) => void,
  pace: () => Promise<void>,
): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += SEND_SLICE_BYTES) {
    if (offset > 0) await pace();
    const slice = bytes.subarray(offset, offset + SEND_SLICE_BYTES);
    sent(slice.length);
    yield slice;
  }
}

/** A streamed body, counted as its chunks are handed on; a download cut short counts what it got. */
async function* counted(body: Readable, sent: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of body as AsyncIterable<Buffer>) {
    sent(chunk.length);
    yield chunk;
  }
}

/** A patch a device gets instead of the full launch bundle. */
export interface PatchAnswer {
  bytes: Buffer;
  /** The update the patch starts from: the device's own (`expo-base-update-id`). */
  baseUpdateId: string;
  /** What the full download would have sent (brotli), to count what the patch saved. */
  fullSize: number;
}

/** The patch source AssetDelivery asks before it serves a launch bundle to a device that can take a patch. */
export interface PatchSource {
  find(key: string, currentUpdateId: string): Promise<PatchAnswer | undefined>;
}

/** Where served bytes are counted (FerryMetrics). */
export interface AssetDeliveryMetrics {
  assetBytesServed(bytes: number, encoding: string): void;
  bundleDownloaded?(answer: 'patch' | 'full', bytes: number, savedBytes?: number): void;
}

/**
 * What a compressible asset's answer varies on: the encoding, and, since a launch bundle may be
 * answered with a patch from the bundle the device runs, whether it asked for one and from which
 * update. A shared cache then keeps a full answer per base at most and never hands it to a device
 * that could have had a patch from another base (docs/decisions.md, "OTA: bundle patches").
 */
export const ASSET_VARY = 'accept-encoding, a-im, expo-current-update-id';
/** A patch fits one device's bundle: no shared cache may keep it (RFC 9111 §5.2.2.5). */
export const PATCH_CACHE_CONTROL = 'private, no-store';

/** Bytes of served assets kept in memory in all, and the largest one kept. */
export const HOT_BYTES_MAX = 64 * 1024 * 1024;
export const HOT_OBJECT_MAX_BYTES = 8 * 1024 * 1024;

/** Devices send a handful of distinct accept-encoding headers: each is negotiated once. */
const negotiated = new LRUCache<string, ContentEncoding>({ max: 256 });

/** The encoding to answer with: brotli, then gzip, when the client allows them; identity otherwise. */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  let encoding = negotiated.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = negotiate(acceptEncoding);
    negotiated.set(acceptEncoding, encoding);
  }
  return encoding;
}

function negotiate(acceptEncoding: string): ContentEncoding {
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

/**
 * Serves public update assets: content type, immutable caching, ETag/304, HEAD, and brotli or gzip
 * when asked. The compressed forms are made when the asset arrives (AssetEncodings), never here: a
 * form that is not ready yet is asked for in the background and the identity form is served meanwhile.
 * Content at an asset key never changes, so what the store said about it is remembered: a request
 * costs one read of the bytes (none for a 304), not a metadata round trip to S3 first.
 */
export class AssetDelivery {
  /** Heads of existing assets and their forms; only found objects, since a missing one may be uploaded. */
  private readonly heads = new LRUCache<string, StoredObject>({ max: 20_000 });
  /**
   * The bytes of recently served representations up to HOT_OBJECT_MAX_BYTES each: a crowd
   * downloading a new bundle is served from one buffer, with no read (no S3 round trip) and no
   * allocation per device. Safe because the content at an asset key never changes.
   */
  private readonly hot = new LRUCache<string, Buffer>({
    maxSize: HOT_BYTES_MAX,
    maxEntrySize: HOT_OBJECT_MAX_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
  });
  private readonly reading = new SingleFlight<string, Buffer | undefined>();
  /**
   * Sends from memory start, and hand on each further slice of their bytes, a pacer's slice per
   * turn, however many devices are downloading at once.
   */
  private readonly pacer = new TurnPacer();
  private readonly pace = () => this.pacer.turn();
  /**
   * Lookups under way: a crowd asking for a new asset at once costs one lookup, not one each, and
   * is woken a slice per event-loop turn.
   */
  private readonly looking = new SingleFlight<string, StoredObject | undefined>();
  /** Bundle patches, once the OTA area offers them (ota-plugin.ts). */
  private patches: PatchSource | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly encodings: AssetEncodings,
    private readonly metrics?: AssetDeliveryMetrics,
  ) {}

  offerPatchesFrom(patches: PatchSource): void {
    this.patches = patches;
  }

  async serve(key: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const wanted = this.patches && patchRequestOf(request.headers);
    if (wanted) {
      const patch = await this.patches!.find(key, wanted.currentUpdateId);
      if (patch) return this.servePatch(patch, request, reply);
    }
    const source = await this.remembered(key, () => this.store.head(key));
    if (!source) throw new AssetNotFound();

    const compressible = isCompressible(source);
    let encoding = compressible ? negotiateEncoding(request.headers['accept-encoding']) : 'identity';
    let representation: StoredObject = source;
    if (encoding !== 'identity') {
      const form = await this.remembered(encodedKey(key, source, encoding), () =>
        this.encodings.find(key, source, encoding as CompressedEncoding),
      );
      if (form) representation = form;
      else {
        // Not made yet (an asset stored before compression at upload, or a failed attempt).
        this.encodings.prepareLater(key);
        encoding = 'identity';
      }
    }

    const etag = etagFor(source.etag, encoding);
    reply
      .header('content-type', source.contentType)
      .header('cache-control', IMMUTABLE_CACHE_CONTROL)
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff');
    if (compressible) reply.header('vary', ASSET_VARY);
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();

    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    reply.header('content-length', representation.size);
    if (request.method === 'HEAD') return reply.send();
    const metrics = this.metrics;
    if (wanted) metrics?.bundleDownloaded?.('full', representation.size);
    const sent = (bytes: number) => metrics?.assetBytesServed(bytes, encoding);
    if (representation.size <= HOT_OBJECT_MAX_BYTES) {
      const bytes = await this.bytesOf(representation.key);
      if (!bytes) throw new AssetNotFound();
      await this.pacer.turn();
      // Views of the one buffer, each slice after the first let through by the same pacer (slicesOf).
      return reply.send(Readable.from(slicesOf(bytes, sent, this.pace), { objectMode: false }));
    }
    const opened = await this.store.get(representation.key);
    if (!opened) throw new AssetNotFound();
    return reply.send(metrics ? Readable.from(counted(opened.body, sent), { objectMode: false }) : opened.body);
  }

  /**
   * A BSDIFF40 patch from the device's own launch bundle: `226 IM Used` with `IM: bsdiff` and the
   * base's update id, which expo-updates requires equal to the update it runs before it applies the
   * patch (FileDownloader.kt, validatePatchResponseMetadata). The patch is already bzip2-compressed:
   * it is sent as it is.
   */
  private async servePatch(patch: PatchAnswer, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    reply
      .code(226)
      .header('im', 'bsdiff')
      .header('expo-base-update-id', patch.baseUpdateId)
      .header('content-type', 'application/octet-stream')
      .header('cache-control', PATCH_CACHE_CONTROL)
      .header('vary', ASSET_VARY)
      .header('x-content-type-options', 'nosniff')
      .header('content-length', patch.bytes.length);
    if (request.method === 'HEAD') return reply.send();
    this.metrics?.bundleDownloaded?.('patch', patch.bytes.length, Math.max(0, patch.fullSize - patch.bytes.length));
    await this.pacer.turn();
    return reply.send(
      Readable.from(
        slicesOf(patch.bytes, () => undefined, this.pace),
        { objectMode: false },
      ),
    );
  }

  /**
   * Reads an asset's compressed forms into memory ahead of its first download: the publish that
   * makes a release live calls it, so the first device is served as fast as the hundredth.
   */
  async preload(key: string): Promise<void> {
    const source = await this.remembered(key, () => this.store.head(key));
    if (!source || !isCompressible(source)) return;
    for (const encoding of COMPRESSED_ENCODINGS) {
      const form = await this.remembered(encodedKey(key, source, encoding), () =>
        this.encodings.find(key, source, encoding),
      );
      if (form && form.size <= HOT_OBJECT_MAX_BYTES) await this.bytesOf(form.key);
    }
  }

  private bytesOf(key: string): Promise<Buffer | undefined> {
    const known = this.hot.get(key);
    if (known) return Promise.resolve(known);
    return this.reading.run(key, async () => {
      // Read whole into one buffer (ObjectStore.read): the buffer every device is then sent from.
      const bytes = (await this.store.read(key))?.bytes;
      if (bytes) this.hot.set(key, bytes);
      return bytes;
    });
  }

  private remembered(key: string, look: () => Promise<StoredObject | undefined>): Promise<StoredObject | undefined> {
    const known = this.heads.get(key);
    if (known) return Promise.resolve(known);
    return this.looking.run(key, () =>
      look().then((head) => {
        if (head) this.heads.set(key, head);
        return head;
      }),
    );
  }
}
