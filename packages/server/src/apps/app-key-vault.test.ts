import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppKeyVault, parseKeyEncryptionKey, SealedKeyUnreadable } from './app-key-vault.js';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';

describe('AppKeyVault: envelope encryption of app signing keys', () => {
  const vault = new AppKeyVault(randomBytes(32));

  it('opens what it sealed, for the same app', () => {
    expect(vault.open('shop', vault.seal('shop', PEM))).toBe(PEM);
  });

  it('never stores the key, nor its base64, and seals the same key differently each time', () => {
    const sealed = vault.seal('shop', PEM);
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(sealed).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    expect(sealed).not.toContain(Buffer.from(PEM).toString('base64url').slice(0, 20));
    expect(vault.seal('shop', PEM)).not.toBe(sealed);
  });

  it.each([
    [
      'another secret',
      (sealed: string) => new AppKeyVault(randomBytes(32)).open('shop', sealed),
      /another APP_KEYS_SECRET/,
    ],
    [
      'another app (a row copied)',
      (sealed: string) => vault.open('games', sealed),
      /changed, or belongs to another app/,
    ],
    [
      'a changed byte',
      (sealed: string) => {
        const parts = sealed.split('.');
        const data = Buffer.from(parts[7]!, 'base64url');
        data[0] = data[0]! ^ 1;
        parts[7] = data.toString('base64url');
        return vault.open('shop', parts.join('.'));
      },
      /changed/,
    ],
    ['not a sealed key', () => vault.open('shop', 'hello'), /not a sealed app key/],
  ])('refuses %s with a clear error', (_what, open, message) => {
    const sealed = vault.seal('shop', PEM);
    expect(() => open(sealed)).toThrow(SealedKeyUnreadable);
    expect(() => open(sealed)).toThrow(message);
  });

  it('while its secret is rotated, opens keys sealed under the previous one and seals only with the current one', () => {
    const [old, current] = [randomBytes(32), randomBytes(32)];
    const sealedBefore = new AppKeyVault(old).seal('shop', PEM);
    const rotating = new AppKeyVault(current, old);
    expect(rotating.sealedWithCurrent(sealedBefore)).toBe(false);
    expect(rotating.open('shop', sealedBefore)).toBe(PEM);
    const resealed = rotating.seal('shop', PEM);
    expect(rotating.sealedWithCurrent(resealed)).toBe(true);
    expect(new AppKeyVault(current).open('shop', resealed)).toBe(PEM);
    expect(() => new AppKeyVault(current).open('shop', sealedBefore)).toThrow(/APP_KEYS_PREVIOUS_SECRET/);
    expect(() => new AppKeyVault(old).open('shop', resealed)).toThrow(SealedKeyUnreadable);
  });

  it('takes its secret as base64 of 32 bytes, and says so otherwise', () => {
    const secret = randomBytes(32);
    expect(parseKeyEncryptionKey(secret.toString('base64'), 'APP_KEYS_SECRET')).toEqual(secret);
    expect(() => parseKeyEncryptionKey(randomBytes(16).toString('base64'), 'APP_KEYS_SECRET')).toThrow(
      /APP_KEYS_SECRET must be the base64 of exactly 32 random bytes/,
    );
  });
});
