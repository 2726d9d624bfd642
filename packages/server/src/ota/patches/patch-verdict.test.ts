import { describe, expect, it } from 'vitest';
import { patchVerdict } from './patch-verdict.js';

describe('patchVerdict', () => {
  it.each([
    [100, 1000, 0.5, 'ready'],
    [500, 1000, 0.5, 'ready'],
    [501, 1000, 0.5, 'larger'],
    [1200, 1000, 0.5, 'larger'],
    [999, 1000, 1, 'ready'],
    [0, 0, 0.5, 'ready'],
  ] as const)('%i bytes against a full download of %i at ratio %f: %s', (patch, full, ratio, expected) => {
    expect(patchVerdict(patch, full, ratio)).toBe(expected);
  });
});
