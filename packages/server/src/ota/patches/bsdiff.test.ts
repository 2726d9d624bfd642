import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatch, makePatch } from './bsdiff.js';

/** Debian's bspatch (package bsdiff): an implementation independent of the addon, as a device's is. */
const bspatch = (base: Buffer, patch: Buffer): Buffer => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bspatch-'));
  try {
    writeFileSync(path.join(dir, 'base'), base);
    writeFileSync(path.join(dir, 'patch'), patch);
    execFileSync('bspatch', [path.join(dir, 'base'), path.join(dir, 'out'), path.join(dir, 'patch')]);
    return readFileSync(path.join(dir, 'out'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('bsdiff', () => {
  const base = Buffer.concat([randomBytes(50_000), Buffer.from('const greeting = "hello";\n'), randomBytes(50_000)]);
  const target = Buffer.from(base.toString('latin1').replace('hello', 'hello, world'), 'latin1');

  it('makes a BSDIFF40 patch that its own bspatch and Debian’s both turn into the target', async () => {
    const patch = await makePatch(base, target);
    expect(patch.subarray(0, 8).toString('latin1')).toBe('BSDIFF40');
    expect(patch.length).toBeLessThan(target.length / 10);
    expect((await applyPatch(base, patch)).equals(target)).toBe(true);
    expect(bspatch(base, patch).equals(target)).toBe(true);
  });

  it('a patch applied to another base does not give the target', async () => {
    const patch = await makePatch(base, target);
    const other = Buffer.from(base);
    other[10] = (other[10]! + 1) % 256;
    expect((await applyPatch(other, patch)).equals(target)).toBe(false);
  });
});
