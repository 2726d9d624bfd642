import { describe, expect, it } from 'vitest';
import { type PatchBase, patchBasesFor } from './patch-bases.js';

const release = (n: number, hash = `h${n}`): PatchBase => ({ kind: 'release', updateId: `r${n}`, hash, key: `k${n}` });
const embedded = (n: number, hash = `e${n}`): PatchBase => ({
  kind: 'embedded',
  updateId: `e${n}`,
  hash,
  key: `ek${n}`,
});
const ids = (bases: PatchBase[]) => bases.map((base) => base.updateId);

describe('patchBasesFor', () => {
  it.each([
    ['a first release with nothing before it', [], [], 3, []],
    [
      'the newest earlier releases, up to the limit',
      [release(4), release(3), release(2), release(1)],
      [],
      3,
      ['r4', 'r3', 'r2'],
    ],
    ['each bundle once (a rollback republished one)', [release(3), release(2, 'h1'), release(1)], [], 3, ['r3', 'r2']],
    ['an earlier release with the target’s bundle is skipped', [release(2, 'T'), release(1)], [], 3, ['r1']],
    [
      'embedded bundles too, up to the limit of their own',
      [release(1)],
      [embedded(3), embedded(2), embedded(1)],
      2,
      ['r1', 'e3', 'e2'],
    ],
    ['an embedded bundle an earlier release also shipped is made once', [release(1)], [embedded(1, 'h1')], 3, ['r1']],
    ['limit 0 makes none', [release(1)], [embedded(1)], 0, []],
  ])('%s', (_name, earlier, registered, limit, expected) => {
    expect(ids(patchBasesFor('T', earlier, registered, limit))).toEqual(expected);
  });
});

it('a release that shipped an embedded bundle’s bytes is read from the embedded copy', () => {
  const [base] = patchBasesFor('T', [release(1)], [embedded(1, 'h1')], 3);
  expect(base).toEqual({ kind: 'release', updateId: 'r1', hash: 'h1', key: 'ek1' });
});
