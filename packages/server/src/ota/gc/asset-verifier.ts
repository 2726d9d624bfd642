import { createHash } from 'node:crypto';
import {
  ASSET_VERIFY_MAX_PROBLEMS,
  type AssetProblem,
  type AssetVerifyRequest,
  type AssetVerifyResponse,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { DependencyUnavailable, DomainError } from '../../errors/domain-error.js';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { KyselyGcStore } from './kysely-gc-store.js';
import { releasesToKeep } from './releases-to-keep.js';

/** Objects read at once: each is streamed through a hash, so memory stays small. */
const READ_CONCURRENCY = 4;

export interface AssetVerifierDeps {
  store: Pick<KyselyGcStore, 'releases' | 'assetsOf'>;
  objects: ObjectStore;
  log: FastifyBaseLogger;
}

type Condition = 'stored' | 'missing' | 'corrupt';

/**
 * The integrity check behind `ferry gc --verify`: every asset a kept release lists (the releases
 * garbage collection keeps, by the same rule) is read whole and hashed, since the key names the
 * hash its bytes must have. Each kept release with an asset that is missing or has other bytes is
 * named. Nothing is written.
 */
export class AssetVerifier {
  constructor(private readonly deps: AssetVerifierDeps) {}

  /** Checks the kept releases of one app. */
  async verify(app: string, request: AssetVerifyRequest): Promise<AssetVerifyResponse> {
    const { store } = this.deps;
    const releases = await store.releases(app);
    const kept = releasesToKeep(releases, request.keepPerTrack);
    const platformOf = new Map(releases.map((release) => [release.id, release.platform]));
    const rows = await store.assetsOf([...kept.keys()]);

    const conditions = new Map<string, Promise<Condition>>();
    const checked = { objects: 0, bytes: 0 };
    const limit = pLimit(READ_CONCURRENCY);
    const conditionOf = (key: string, hash: string) => {
      let condition = conditions.get(key);
      if (!condition) {
        condition = limit(() => this.check(key, hash, checked));
        conditions.set(key, condition);
      }
      return condition;
    };

    const problems: AssetProblem[] = [];
    const withProblems = new Set<string>();
    await Promise.all(
      rows.map(async (row) => {
        for (const hash of new Set(row.hashes)) {
          const key = updateAssetKey(row.app, row.channel, row.runtimeVersion, hash);
          const condition = await conditionOf(key, hash);
          if (condition === 'stored') continue;
          withProblems.add(row.id);
          if (problems.length >= ASSET_VERIFY_MAX_PROBLEMS) continue;
          problems.push({
            releaseId: row.id,
            channel: row.channel,
            platform: platformOf.get(row.id) ?? '',
            runtimeVersion: row.runtimeVersion,
            key,
            hash,
            problem: condition,
          });
        }
      }),
    );
    problems.sort((a, b) => a.releaseId.localeCompare(b.releaseId) || a.key.localeCompare(b.key));
    if (withProblems.size > 0) {
      this.deps.log.warn(
        { releases: withProblems.size, problems: problems.length },
        'asset integrity check: kept releases list assets that are missing or corrupt',
      );
    }
    return {
      keepPerTrack: request.keepPerTrack,
      releasesKept: kept.size,
      checked,
      releasesWithProblems: withProblems.size,
      problems,
    };
  }

  /** Reads an object through SHA-256: stored (with its hash), missing, or corrupt (other bytes). */
  private async check(key: string, hash: string, checked: { objects: number; bytes: number }): Promise<Condition> {
    try {
      const object = await this.deps.objects.get(key);
      if (!object) return 'missing';
      const digest = createHash('sha256');
      let bytes = 0;
      for await (const chunk of object.body) {
        digest.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
      checked.objects++;
      checked.bytes += bytes;
      return digest.digest('base64url') === hash ? 'stored' : 'corrupt';
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.deps.log.warn({ err: error, key }, 'asset integrity check could not read the object store');
      throw new DependencyUnavailable('object storage');
    }
  }
}
