import type { RolloutState } from '@ferry/contracts';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DependencyUnavailable } from '../../errors/domain-error.js';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { ListedObject, ObjectStore } from '../../storage/objects/object-store.js';
import { AssetCollector, GcInProgress, sourceOfEncodedForm } from './asset-collector.js';
import type { DeletionMarks } from './asset-deletions.js';
import type { GcAuditEvent, RecentRelease, ReleaseSnapshot } from './kysely-gc-store.js';

/**
 * The collector's own rules, with an object store and a release store in memory: what it does when
 * the world changes while it runs (a release registered, a rollout resumed), when the store refuses
 * a deletion or a listing, and when a second collection is asked for. The rules of what to keep are
 * releases-to-keep.test.ts; the whole over HTTP is test/ota/asset-gc*.test.ts.
 */

const NOW = Date.parse('2026-06-01T00:00:00Z');
const OLD = new Date(NOW - 48 * 3600 * 1000);
const hash = (n: number) => `${String(n).padStart(2, '0')}${'A'.repeat(41)}`;
const keyOf = (n: number) => updateAssetKey('default', 'production', '1.0.0(1)', hash(n));
const formOf = (n: number, encoding = 'br') => `encoded/${encoding}/etag${n}/${keyOf(n)}`;

class MemoryObjects {
  readonly objects = new Map<string, ListedObject>();
  readonly deleted: string[] = [];
  refuse = new Set<string>();
  failListing = false;
  /** Called once before the listing's first object: the world changing while a collection runs. */
  onFirstListed?: () => void | Promise<void>;

  add(key: string, lastModified = OLD, size = 100): this {
    this.objects.set(key, { key, size, lastModified });
    return this;
  }

  asStore(): ObjectStore {
    const self = this;
    return {
      async delete(key: string) {
        if (self.refuse.has(key)) throw new Error('AccessDenied');
        self.objects.delete(key);
        self.deleted.push(key);
      },
      async *list(prefix: string) {
        if (self.failListing) throw new Error('connect ECONNREFUSED');
        const hook = self.onFirstListed;
        self.onFirstListed = undefined;
        await hook?.();
        for (const object of [...self.objects.values()]) if (object.key.startsWith(prefix)) yield object;
      },
    } as unknown as ObjectStore;
  }
}

const release = (id: string, n: number[], createdAt: number, rolloutState: RolloutState | null = null) => ({
  snapshot: {
    id,
    channel: 'production',
    app: 'default',
    platform: 'ios',
    runtimeVersion: '1.0.0(1)',
    createdAt,
    seq: createdAt,
    rolloutState,
    rolloutUpdatedAt: rolloutState ? 1 : null,
  } satisfies ReleaseSnapshot,
  assets: { id, app: 'default', channel: 'production', runtimeVersion: '1.0.0(1)', hashes: n.map(hash) },
});

class MemoryReleases {
  releasesList: ReturnType<typeof release>[] = [];
  recent: RecentRelease[] = [];
  readonly audits: GcAuditEvent[] = [];

  store() {
    return {
      releases: async () => this.releasesList.map((r) => r.snapshot),
      assetsOf: async (ids: readonly string[]) =>
        this.releasesList.filter((r) => ids.includes(r.snapshot.id)).map((r) => r.assets),
      changedSince: async () => this.recent,
      audit: async (_app: string, event: GcAuditEvent) => {
        this.audits.push(event);
      },
    };
  }
}

/** Deletion marks in memory: what was marked pending when, and whether a claim is granted. */
class MemoryDeletions {
  readonly events: string[] = [];
  claimRefused = false;
  mayDelete = true;

  run(): DeletionMarks {
    return {
      claim: async () => !this.claimRefused,
      markPending: async (decide) => {
        const keys = await decide(undefined as never);
        this.events.push(...keys.map((key) => `pending ${key}`));
        return keys;
      },
      markDone: async (keys) => {
        this.events.push(...keys.map((key) => `done ${key}`));
      },
      keepClaim: async () => true,
      mayDelete: () => this.mayDelete,
      release: async () => {
        this.events.push('released');
      },
    };
  }
}

const collectorOf = (releases: MemoryReleases, objects: MemoryObjects, deletions = new MemoryDeletions()) =>
  new AssetCollector({
    store: releases.store(),
    deletions,
    objects: objects.asStore(),
    graceSeconds: 3600,
    log: pino({ level: 'silent' }),
    now: () => new Date(NOW),
  });

describe('AssetCollector', () => {
  it('marks update assets pending before it deletes them and ends the marks after, then lets its claim go', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2)];
    const objects = new MemoryObjects().add(keyOf(1)).add(keyOf(2));
    const deletions = new MemoryDeletions();
    const seenWhenDeleted: string[][] = [];
    const store = objects.asStore();
    const remove = store.delete.bind(store);
    store.delete = async (key: string) => {
      seenWhenDeleted.push([...deletions.events]);
      await remove(key);
    };
    await new AssetCollector({
      store: releases.store(),
      deletions,
      objects: store,
      graceSeconds: 3600,
      log: pino({ level: 'silent' }),
      now: () => new Date(NOW),
    }).collect('default', { keepPerTrack: 1, dryRun: false }, 'ci');
    expect(objects.deleted).toEqual([keyOf(1)]);
    expect(seenWhenDeleted).toEqual([[`pending ${keyOf(1)}`]]);
    expect(deletions.events).toEqual([`pending ${keyOf(1)}`, `done ${keyOf(1)}`, 'released']);
  });

  it('answers GC_IN_PROGRESS when another collection holds the claim, and a dry run needs no claim', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2)];
    const objects = new MemoryObjects().add(keyOf(1)).add(keyOf(2));
    const deletions = new MemoryDeletions();
    deletions.claimRefused = true;
    const collector = collectorOf(releases, objects, deletions);
    await expect(collector.collect('default', { keepPerTrack: 1, dryRun: false }, 'ci')).rejects.toBeInstanceOf(
      GcInProgress,
    );
    expect(objects.deleted).toEqual([]);
    const dry = await collector.collect('default', { keepPerTrack: 1, dryRun: true }, 'ci');
    expect(dry.collected.assets).toBe(1);
    expect(deletions.events).toEqual([]);
  });

  it('leaves what it has not deleted once its claim is running out, and ends its marks', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2)];
    const objects = new MemoryObjects().add(keyOf(1)).add(keyOf(2));
    const deletions = new MemoryDeletions();
    deletions.mayDelete = false;
    const answer = await collectorOf(releases, objects, deletions).collect(
      'default',
      { keepPerTrack: 1, dryRun: false },
      'ci',
    );
    expect(objects.deleted).toEqual([]);
    expect(answer.failed.objects).toBe(1);
    expect(deletions.events).toEqual([`pending ${keyOf(1)}`, `done ${keyOf(1)}`, 'released']);
  });

  it('a release registered while it runs keeps the old assets it lists again', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1, 2], 1), release('r2', [3], 2)];
    const objects = new MemoryObjects().add(keyOf(1)).add(keyOf(2)).add(keyOf(3)).add(formOf(1)).add(formOf(2));
    // r3 reuses asset 1 and commits after the collection decided what to keep.
    objects.onFirstListed = () => {
      releases.recent = [{ ...release('r3', [1, 3], 3).assets, rolloutUpdatedAt: null }];
    };
    const answer = await collectorOf(releases, objects).collect('default', { keepPerTrack: 1, dryRun: false }, 'ci');
    expect(objects.deleted.sort()).toEqual([formOf(2), keyOf(2)].sort());
    expect(objects.objects.has(keyOf(1))).toBe(true);
    expect(objects.objects.has(formOf(1))).toBe(true);
    expect(answer.kept.objects).toBe(2);
  });

  it('a rollout that changed while it runs keeps its release; releases it already saw unchanged do not', async () => {
    const releases = new MemoryReleases();
    const reverted = release('r1', [1], 1, 'reverted');
    releases.releasesList = [reverted, release('r2', [2], 2), release('r3', [3], 3)];
    const objects = new MemoryObjects().add(keyOf(1)).add(keyOf(2)).add(keyOf(3));
    objects.onFirstListed = () => {
      releases.recent = [
        // Seen as it was: no change.
        { ...release('r2', [2], 2).assets, rolloutUpdatedAt: null },
        // Resumed after the first read.
        { ...reverted.assets, rolloutUpdatedAt: 99 },
      ];
    };
    await collectorOf(releases, objects).collect('default', { keepPerTrack: 1, dryRun: false }, 'ci');
    expect(objects.deleted).toEqual([keyOf(2)]);
  });

  it('a deletion the store refuses is counted and its compressed forms stay; the rest goes on', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2), release('r3', [3], 3)];
    const objects = new MemoryObjects()
      .add(keyOf(1), OLD, 10)
      .add(keyOf(2), OLD, 20)
      .add(keyOf(3))
      .add(formOf(1))
      .add(formOf(2));
    objects.refuse.add(keyOf(1));
    const answer = await collectorOf(releases, objects).collect('default', { keepPerTrack: 1, dryRun: false }, 'ci');
    expect(answer.failed).toEqual({ objects: 1, bytes: 10 });
    expect(objects.deleted.sort()).toEqual([formOf(2), keyOf(2)].sort());
    expect(objects.objects.has(formOf(1))).toBe(true);
    expect(releases.audits[0]?.details).toMatchObject({ failed: { objects: 1, bytes: 10 } });
  });

  it('a dry run deletes nothing and records no audit event', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2)];
    const objects = new MemoryObjects().add(keyOf(1)).add(keyOf(2)).add(formOf(1, 'gzip'));
    const answer = await collectorOf(releases, objects).collect('default', { keepPerTrack: 1, dryRun: true }, 'ci');
    expect(answer.collected).toMatchObject({ objects: 2, assets: 1, encodedForms: 1 });
    expect(answer.sample.sort()).toEqual([formOf(1, 'gzip'), keyOf(1)].sort());
    expect(objects.deleted).toEqual([]);
    expect(releases.audits).toEqual([]);
  });

  it('leaves alone what is not an update asset or its form', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1)];
    const objects = new MemoryObjects()
      .add(keyOf(1))
      .add('updates/production/1.0.0(1)/other/thing')
      .add('updates/production/1.0.0(1)/assets/not-a-hash')
      .add('encoded/br/etag/certificates/u/1.pdf')
      .add('certificates/u/1.pdf');
    await collectorOf(releases, objects).collect('default', { keepPerTrack: 1, dryRun: false }, 'ci');
    expect(objects.deleted).toEqual([]);
  });

  it('an unreachable object store answers 503, having deleted nothing', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2)];
    const objects = new MemoryObjects().add(keyOf(1));
    objects.failListing = true;
    await expect(
      collectorOf(releases, objects).collect('default', { keepPerTrack: 1, dryRun: false }, 'ci'),
    ).rejects.toBeInstanceOf(DependencyUnavailable);
    expect(objects.deleted).toEqual([]);
  });

  it('runs one collection at a time per instance', async () => {
    const releases = new MemoryReleases();
    releases.releasesList = [release('r1', [1], 1), release('r2', [2], 2)];
    const objects = new MemoryObjects().add(keyOf(1));
    let resume: () => void = () => {};
    objects.onFirstListed = () => new Promise<void>((resolve) => (resume = resolve));
    const collector = collectorOf(releases, objects);
    const first = collector.collect('default', { keepPerTrack: 1, dryRun: false }, 'ci');
    await expect.poll(() => objects.onFirstListed).toBeUndefined();
    await expect(collector.collect('default', { keepPerTrack: 1, dryRun: true }, 'ci')).rejects.toBeInstanceOf(
      GcInProgress,
    );
    resume();
    expect((await first).collected.assets).toBe(1);
    // Once it finished, the next one may run.
    expect((await collector.collect('default', { keepPerTrack: 1, dryRun: true }, 'ci')).collected.objects).toBe(0);
  });

  it.each([
    [`encoded/br/abc/${keyOf(1)}`, keyOf(1)],
    [`encoded/gzip/abc-def_1/${keyOf(1)}`, keyOf(1)],
    [`encoded/zstd/abc/${keyOf(1)}`, undefined],
    [`encoded/br/${keyOf(1)}`, undefined],
    ['encoded/br/abc/certificates/u/1.pdf', undefined],
    [keyOf(1), undefined],
  ])('the source of %s is %s', (form, source) => {
    expect(sourceOfEncodedForm(form)).toBe(source);
  });
});
