import { describe, expect, it } from 'vitest';
import { etagFor, etagMatches, negotiateEncoding } from './asset-delivery.js';
import { isCompressible } from './asset-encodings.js';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.8', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['deflate', 'identity'],
    ['identity;q=1, br;q=0.1', 'identity'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('etagMatches', () => {
  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    ['*', '"a"', true],
    ['"b"', '"a"', false],
    [undefined, '"a"', false],
  ])('if-none-match %j vs %j → %s', (header, etag, expected) => {
    expect(etagMatches(header, etag)).toBe(expected);
  });

  it('gives each encoding its own ETag', () => {
    expect(etagFor('"abc"', 'br')).toBe('"abc-br"');
    expect(etagFor('"abc"', 'gzip')).toBe('"abc-gzip"');
    expect(etagFor('"abc"', 'identity')).toBe('"abc"');
  });
});

describe('isCompressible', () => {
  it.each([
    ['application/javascript', 5000, true],
    ['application/octet-stream', 5000, true],
    ['image/svg+xml', 5000, true],
    ['text/plain', 100, false],
    ['image/png', 5000, false],
    ['font/woff2', 5000, false],
    ['application/zip', 5000, false],
    ['application/javascript', 100 * 1024 * 1024, false],
  ])('%s of %d bytes → %s', (contentType, size, expected) => {
    expect(isCompressible({ contentType, size })).toBe(expected);
  });
});
