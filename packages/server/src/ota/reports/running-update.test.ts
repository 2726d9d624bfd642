import { describe, expect, it } from 'vitest';
import { runningUpdateOf } from './running-update.js';

const RELEASE = '11111111-2222-4333-8444-555555555555';
const EMBEDDED = '99999999-2222-4333-8444-555555555555';

describe('runningUpdateOf', () => {
  it.each([
    ['no current update', undefined, undefined, undefined],
    ['no current update, an embedded one', undefined, EMBEDDED, undefined],
    ['a release, nothing embedded named', RELEASE, undefined, RELEASE],
    ['a release over an embedded update', RELEASE, EMBEDDED, RELEASE],
    ['a release in capitals', RELEASE.toUpperCase(), EMBEDDED, RELEASE],
    ['the embedded update itself', EMBEDDED, EMBEDDED, undefined],
    ['the embedded update, spelt in another case', EMBEDDED.toUpperCase(), EMBEDDED, undefined],
  ])('%s', (_, currentUpdateId, embeddedUpdateId, expected) => {
    expect(runningUpdateOf({ currentUpdateId, embeddedUpdateId })).toBe(expected);
  });
});
