import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterEach, expect, it } from 'vitest';
import { KyselyPatchStore } from '../../src/ota/patches/kysely-patch-store.js';
import { queuePatches } from '../../src/ota/patches/patch-queue.js';
import { PATCH_MAX_ATTEMPTS } from '../../src/ota/patches/patch-verdict.js';
import { type Database, openMigratedDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';

/**
 * Claims of bundle patches in the database, on both engines: one holder at a time, a lapsed or
 * orphaned claim taken over, a failure retried after its delay, and a patch whose makers keep
 * failing (or dying) given up after PATCH_MAX_ATTEMPTS.
 */

const opened: Array<{ database: Database; test: TestDatabase }> = [];
afterEach(async () => {
  for (const { database, test } of opened.splice(0)) {
    await database.close();
    await test.drop();
  }
});

describeEachEngine('bundle patch claims', (engine: EngineName) => {
  async function storeAt(clock: { now: number }) {
    const test = await createTestDatabase(engine);
    const database = await openMigratedDatabase(test.target);
    opened.push({ database, test });
    const store = new KyselyPatchStore(database, () => clock.now);
    await queuePatches(
      database.db,
      [{ kind: 'release', updateId: 'r1', hash: 'base', key: 'updates/p/1/assets/base' }],
      { hash: 'target', key: 'updates/p/1/assets/target' },
      clock.now,
    );
    return store;
  }
  const alive = `${os.hostname()}:${process.pid}`;
  const gone = `${os.hostname()}:${spawnSync(process.execPath, ['-e', '']).pid}`;

  it('one holder at a time; a lapsed claim, or one of a process that is gone, is taken over', async () => {
    const clock = { now: 1_000_000 };
    const store = await storeAt(clock);
    expect(await store.claimNext('another-host:1', 60_000)).toMatchObject({ holder: 'another-host:1', attempts: 1 });
    expect(await store.claimNext(alive, 60_000)).toBeUndefined();
    clock.now += 60_001;
    const taken = await store.claimNext(gone, 60_000);
    expect(taken).toMatchObject({ holder: gone, attempts: 2 });
    // The holder is a process of this host that is gone: taken over before its lease lapses.
    expect(await store.claimNext(alive, 60_000)).toMatchObject({ holder: alive, attempts: 3 });
    // The one that lost its claim can no longer finish it.
    expect(await store.finish(taken!, gone, { state: 'ready', patchKey: 'p', size: 1, fullSize: 2 })).toBe(false);
  });

  it('a failure is tried again after its delay, and given up after the last attempt', async () => {
    const clock = { now: 2_000_000 };
    const store = await storeAt(clock);
    for (let attempt = 1; attempt <= PATCH_MAX_ATTEMPTS; attempt++) {
      const row = await store.claimNext(alive, 60_000);
      expect(row).toMatchObject({ attempts: attempt });
      await store.giveBack(row!, alive, 30_000);
      expect(await store.claimNext(alive, 60_000)).toBeUndefined();
      clock.now += 30_001;
    }
    expect(await store.claimNext(alive, 60_000)).toBeUndefined();
    expect(await store.patchesTo(['target'])).toEqual(
      new Map([
        ['target', [{ base: { kind: 'release', updateId: 'r1' }, state: 'failed', bytes: null, fullBytes: null }]],
      ]),
    );
    expect(await store.pendingCount()).toBe(0);
  });
});
