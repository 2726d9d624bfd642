import { describe, expect, it } from 'vitest';
import { decideManifest } from './manifest-service.js';

const ID = '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b';

// The spec's manifest rules 1–3 as a table.
describe('decideManifest', () => {
  it.each([
    ['no release for the track', undefined, undefined, 'no-release'],
    ['no release, whatever the app runs', undefined, ID, 'no-release'],
    ['the app runs the newest release', { id: ID }, ID, 'up-to-date'],
    ['the same id in upper case', { id: ID }, ID.toUpperCase(), 'up-to-date'],
    ['the app runs something else', { id: ID }, '00000000-0000-0000-0000-000000000000', 'update'],
    ['the app sent no current id', { id: ID }, undefined, 'update'],
  ] as const)('%s → %s', (_name, newest, current, expected) => {
    expect(decideManifest(newest, current)).toBe(expected);
  });
});
