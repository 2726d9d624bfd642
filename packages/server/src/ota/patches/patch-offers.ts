import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { SingleFlight } from '../../single-flight.js';
import type { PatchAnswer, PatchSource } from '../../storage/objects/asset-delivery.js';
import { assetHashOfKey, keySegmentOf } from '../../storage/objects/object-key.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { KnownBase, KyselyPatchStore, PatchOffer } from './kysely-patch-store.js';

/** How long "no such update" or "no ready patch" is believed: a patch being made is ready within seconds. */
const NOT_FOUND_TTL_MS = 5_000;
/** Patch bytes kept in memory: a crowd on one base downloads one buffer. */
const PATCH_BYTES_MAX = 32 * 1024 * 1024;

const ASSET_KEY = /^updates\/([^/]+)\/([^/]+)\/assets\/[^/]+$/;

/**
 * Finds the patch for a launch-bundle download: the base is the launch bundle of the update the
 * device runs (a release of the same channel and runtime version, or an embedded bundle registered
 * for the runtime version), and only a ready (made, checked, small enough) patch from exactly that
 * base to the requested bundle is offered. Any miss, and any failure to look, is the full bundle:
 * a patch is an optimisation, never a reason to fail a download.
 *
 * What is found is remembered: a release's launch bundle and a made patch never change. What is not
 * found is remembered briefly, so a crowd on an unknown base costs one lookup, not one each.
 */
export class PatchOffers implements PatchSource {
  private readonly bases = new LRUCache<string, KnownBase | false>({ max: 10_000 });
  private readonly offers = new LRUCache<string, PatchOffer | false>({ max: 10_000 });
  private readonly bytes = new LRUCache<string, Buffer>({
    maxSize: PATCH_BYTES_MAX,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
  });
  private readonly looking = new SingleFlight<string, unknown>();

  constructor(
    private readonly store: Pick<KyselyPatchStore, 'baseOf' | 'offer'>,
    private readonly objects: Pick<ObjectStore, 'read'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  async find(key: string, currentUpdateId: string): Promise<PatchAnswer | undefined> {
    const targetHash = assetHashOfKey(key);
    const place = ASSET_KEY.exec(key);
    if (!targetHash || !place) return undefined;
    const [, channelSegment, runtimeSegment] = place as unknown as [string, string, string];
    let runtimeVersion: string;
    try {
      runtimeVersion = decodeURIComponent(runtimeSegment);
    } catch {
      return undefined; // not a key Ferry wrote (keySegmentOf's output always decodes)
    }
    try {
      const base = await this.remembered('base', this.bases, `${currentUpdateId}\n${runtimeVersion}`, () =>
        this.store.baseOf(currentUpdateId, runtimeVersion),
      );
      if (!base || base.runtimeVersion !== runtimeVersion || base.hash === targetHash) return undefined;
      // A release of another channel is another track: its devices are not this bundle's.
      if (base.channel !== undefined && keySegmentOf(base.channel) !== channelSegment) return undefined;
      const offer = await this.remembered('offer', this.offers, `${base.hash}\n${targetHash}`, () =>
        this.store.offer(base.hash, targetHash),
      );
      if (!offer) return undefined;
      const bytes = await this.bytesOf(offer.key);
      if (!bytes) {
        // Collected since it was found: the full bundle, and look again next time.
        this.offers.delete(`${base.hash}\n${targetHash}`);
        return undefined;
      }
      return { bytes, baseUpdateId: currentUpdateId, fullSize: offer.fullSize };
    } catch (err) {
      this.log.warn({ err, key }, 'could not look up a bundle patch; the full bundle is sent');
      return undefined;
    }
  }

  private async remembered<T extends object>(
    kind: 'base' | 'offer',
    cache: LRUCache<string, T | false>,
    key: string,
    look: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const known = cache.get(key);
    if (known !== undefined) return known || undefined;
    const found = (await this.looking.run(`${kind}\n${key}`, look)) as T | undefined;
    if (found) cache.set(key, found);
    else cache.set(key, false, { ttl: NOT_FOUND_TTL_MS });
    return found;
  }

  private async bytesOf(key: string): Promise<Buffer | undefined> {
    const known = this.bytes.get(key);
    if (known) return known;
    const read = (await this.looking.run(`bytes\n${key}`, async () => (await this.objects.read(key))?.bytes)) as
      | Buffer
      | undefined;
    if (read) this.bytes.set(key, read);
    return read;
  }
}
