import { describe, expect, it } from 'vitest';
import { patchRequestOf } from './patch-request.js';

const ID = '0f8a3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b';

describe('patchRequestOf', () => {
  it.each([
    ['the client’s own headers', { 'a-im': 'bsdiff', 'expo-current-update-id': ID }, ID],
    ['an upper-case id', { 'a-im': 'bsdiff', 'expo-current-update-id': ID.toUpperCase() }, ID],
    ['bsdiff in a list, any case, with parameters', { 'a-im': 'vcdiff, BSDiff;q=1', 'expo-current-update-id': ID }, ID],
    ['no A-IM', { 'expo-current-update-id': ID }, undefined],
    ['A-IM without bsdiff', { 'a-im': 'vcdiff, gzip', 'expo-current-update-id': ID }, undefined],
    ['a manipulation that only starts with bsdiff', { 'a-im': 'bsdiff2', 'expo-current-update-id': ID }, undefined],
    ['no current update', { 'a-im': 'bsdiff' }, undefined],
    ['an empty current update', { 'a-im': 'bsdiff', 'expo-current-update-id': '' }, undefined],
    ['a current update that is not a UUID', { 'a-im': 'bsdiff', 'expo-current-update-id': 'embedded' }, undefined],
    ['a UUID with more around it', { 'a-im': 'bsdiff', 'expo-current-update-id': `${ID}x` }, undefined],
  ])('%s', (_name, headers, expected) => {
    expect(patchRequestOf(headers)?.currentUpdateId).toBe(expected);
  });
});
