import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AppKeyVault } from './app-key-vault.js';
import { AppRegistry } from './app-registry.js';
import { sealedSigningKey } from './app-signing-material.js';
import type { AppStore, StoredApp } from './app-store.js';

/** A row TTL short enough to pass by waiting a little longer: waits are lower bounds, never limits. */
const ROW_TTL_MS = 1;
const pastTheRowTtl = () => sleep(ROW_TTL_MS * 5);

describe('AppRegistry: an app key changed outside this instance', () => {
  const vault = new AppKeyVault(randomBytes(32));
  const log = { info: () => {}, error: () => {} };

  async function setUp(rowTtlMs = ROW_TTL_MS) {
    let row: StoredApp = {
      slug: 'shop',
      name: 'Shop',
      createdAt: 0,
      archivedAt: null,
      ...(await sealedSigningKey(vault, 'shop', 'Shop', undefined)),
    };
    const reads = { count: 0, failing: false };
    const store = {
      find: async (slug: string) => {
        reads.count++;
        if (reads.failing) throw new Error('the database is away');
        return slug === row.slug ? row : undefined;
      },
    } as unknown as AppStore;
    const registry = new AppRegistry(store, vault, log as never, rowTtlMs);
    const changed: string[] = [];
    registry.onKeyChanged = (app) => changed.push(app);
    return { registry, reads, changed, row: () => row, setRow: (next: StoredApp) => (row = next) };
  }

  it('keeps its signer while the row is fresh, without reading it again; past its TTL, one read for every waiter', async () => {
    const fresh = await setUp(3_600_000);
    const signer = await fresh.registry.load('shop');
    expect(await Promise.all([fresh.registry.load('shop'), fresh.registry.load('shop')])).toEqual([signer, signer]);
    expect(fresh.reads.count).toBe(1);

    const { registry, reads } = await setUp();
    const kept = await registry.load('shop');
    await pastTheRowTtl();
    const readsBefore = reads.count;
    expect(await Promise.all([registry.load('shop'), registry.load('shop')])).toEqual([kept, kept]);
    expect(reads.count).toBe(readsBefore + 1);
  });

  it.each([
    ['resealed (another secret, the same key)', 'same signer'],
    ['rotated (another key and certificate)', 'new signer'],
  ])('a row %s past its TTL: %s', async (change, expected) => {
    const { registry, changed, row, setRow } = await setUp();
    const before = await registry.load('shop');
    if (change.startsWith('resealed')) {
      setRow({ ...row(), sealedKey: vault.seal('shop', 'not even a key: a reseal is never opened again') });
    } else {
      setRow({ ...row(), ...(await sealedSigningKey(vault, 'shop', 'Shop', undefined)) });
    }
    await pastTheRowTtl();
    const after = await registry.load('shop');
    if (expected === 'same signer') {
      expect(after).toBe(before);
      expect(changed).toEqual([]);
    } else {
      expect(after?.certificatePem).toBe(row().certificate);
      expect(after?.certificatePem).not.toBe(before?.certificatePem);
      expect(registry.loaded('shop')).toBe(after);
      expect(changed).toEqual(['shop']);
    }
  });

  it('keeps signing with the key it holds while the row cannot be read (a database outage)', async () => {
    const { registry, reads } = await setUp();
    const signer = await registry.load('shop');
    reads.failing = true;
    await pastTheRowTtl();
    expect(await registry.load('shop')).toBe(signer);
    await expect(registry.load('games')).rejects.toThrow('the database is away');
  });
});
