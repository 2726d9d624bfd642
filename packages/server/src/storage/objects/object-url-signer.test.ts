import { describe, expect, it } from 'vitest';
import { MAX_SIGNED_URL_TTL_SECONDS, type ObjectGrant, ObjectUrlSigner } from './object-url-signer.js';

const NOW = new Date('2026-05-01T12:00:00Z');
const signer = new ObjectUrlSigner(Buffer.alloc(32, 7), () => NOW);
const nowSeconds = Math.floor(NOW.getTime() / 1000);

const grant: ObjectGrant = {
  method: 'PUT',
  key: 'updates/production/1/assets/h',
  expires: nowSeconds + 60,
  contentType: 'image/png',
  sha256: 'h',
  size: 10,
};

describe('ObjectUrlSigner', () => {
  it('accepts its own grant until it expires', () => {
    const signature = signer.sign(grant);
    expect(signer.check({ ...grant, expires: String(grant.expires) }, signature)).toEqual({ ok: true });
    const late = new ObjectUrlSigner(Buffer.alloc(32, 7), () => new Date(NOW.getTime() + 61_000));
    expect(late.check({ ...grant, expires: String(grant.expires) }, signature)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it.each<[string, Partial<ObjectGrant>]>([
    ['method', { method: 'GET' }],
    ['key', { key: 'updates/production/1/assets/g' }],
    ['expiry', { expires: grant.expires + 1 }],
    ['content type', { contentType: 'text/html' }],
    ['hash', { sha256: 'g' }],
    ['size', { size: 11 }],
    ['size dropped', { size: undefined }],
  ])('a grant with another %s does not verify', (_name, change) => {
    const signature = signer.sign(grant);
    const changed = { ...grant, ...change };
    expect(signer.check({ ...changed, expires: String(changed.expires) }, signature)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('another secret does not verify', () => {
    const other = new ObjectUrlSigner(Buffer.alloc(32, 8), () => NOW);
    expect(other.check({ ...grant, expires: String(grant.expires) }, signer.sign(grant)).ok).toBe(false);
  });

  it.each([
    [undefined, 'x', 'missing'],
    [String(grant.expires), undefined, 'missing'],
    [String(grant.expires), '', 'missing'],
    ['12.5', 'x', 'invalid'],
    ['-1', 'x', 'invalid'],
    [String(grant.expires), 'short', 'invalid'],
  ])('expires=%j signature=%j → %s', (expires, signature, reason) => {
    expect(signer.check({ ...grant, expires }, signature)).toEqual({ ok: false, reason });
  });

  it('clamps lifetimes to a week and at least a second', () => {
    expect(signer.expiresIn(10 * MAX_SIGNED_URL_TTL_SECONDS)).toBe(nowSeconds + MAX_SIGNED_URL_TTL_SECONDS);
    expect(signer.expiresIn(0)).toBe(nowSeconds + 1);
  });

  it('refuses a short secret', () => {
    expect(() => new ObjectUrlSigner(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
