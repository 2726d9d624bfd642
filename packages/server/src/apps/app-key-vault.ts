import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Thrown when a sealed key cannot be opened: another secret, or bytes that were changed. */
export class SealedKeyUnreadable extends Error {
  override name = 'SealedKeyUnreadable';
}

const VERSION = 'v1';
const b64 = (bytes: Buffer) => bytes.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');

function encrypt(key: Buffer, plain: Buffer, aad: Buffer): { iv: Buffer; tag: Buffer; data: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), data };
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

const kekIdOf = (kek: Buffer): string =>
  createHash('sha256').update('ferry-app-keys').update(kek).digest('base64url').slice(0, 11);

/**
 * Envelope encryption of app signing keys (docs/apps.md, "Signing keys"). Each key is encrypted
 * with a data key of its own (AES-256-GCM); the data key is encrypted with the key-encryption key
 * from configuration (APP_KEYS_SECRET), which never reaches the database. The app's slug is bound
 * as additional data: a sealed key copied into another app's row does not open. The sealed form
 * names the secret it was sealed under by a short hash (`kekId`), so a wrong secret is told as such.
 *
 *   v1.<kekId>.<iv>.<tag>.<wrapped data key>.<iv>.<tag>.<encrypted PEM>   (base64url parts)
 *
 * While the secret is rotated the vault also holds the one being retired (APP_KEYS_PREVIOUS_SECRET):
 * it opens keys sealed under either, and seals only with the current one (`ferry-server apps reseal`).
 */
export class AppKeyVault {
  readonly kekId: string;
  private readonly keks: Map<string, Buffer>;

  constructor(kek: Buffer, previous?: Buffer) {
    for (const key of [kek, previous]) {
      if (key && key.length !== 32) throw new RangeError('the key-encryption key must be 32 bytes');
    }
    this.kekId = kekIdOf(kek);
    this.keks = new Map([[this.kekId, kek]]);
    if (previous) this.keks.set(kekIdOf(previous), previous);
  }

  private static aad(slug: string): Buffer {
    return Buffer.from(`ferry-app-key:${VERSION}:${slug}`, 'utf8');
  }

  seal(slug: string, pem: string): string {
    const aad = AppKeyVault.aad(slug);
    const dataKey = randomBytes(32);
    const body = encrypt(dataKey, Buffer.from(pem, 'utf8'), aad);
    const wrapped = encrypt(this.keks.get(this.kekId)!, dataKey, aad);
    dataKey.fill(0);
    return [VERSION, this.kekId, wrapped.iv, wrapped.tag, wrapped.data, body.iv, body.tag, body.data]
      .map((part) => (typeof part === 'string' ? part : b64(part)))
      .join('.');
  }

  /** Whether a sealed key is sealed under the current secret (false: under the previous one, or another). */
  sealedWithCurrent(sealed: string): boolean {
    return sealed.split('.')[1] === this.kekId;
  }

  open(slug: string, sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 8 || parts[0] !== VERSION) throw new SealedKeyUnreadable('not a sealed app key');
    const [, kekId, wrapIv, wrapTag, wrapped, iv, tag, data] = parts as [string, ...string[]] as string[];
    const kek = this.keks.get(kekId!);
    if (!kek) {
      throw new SealedKeyUnreadable(
        'the app key was sealed under another APP_KEYS_SECRET: set the secret it was sealed with (or, while rotating it, as APP_KEYS_PREVIOUS_SECRET)',
      );
    }
    const aad = AppKeyVault.aad(slug);
    try {
      const dataKey = decrypt(kek, unb64(wrapIv!), unb64(wrapTag!), unb64(wrapped!), aad);
      const pem = decrypt(dataKey, unb64(iv!), unb64(tag!), unb64(data!), aad).toString('utf8');
      dataKey.fill(0);
      return pem;
    } catch {
      throw new SealedKeyUnreadable('the sealed app key was changed, or belongs to another app');
    }
  }
}

/** The key-encryption key from its configured text: base64 (or base64url) of exactly 32 bytes. */
export function parseKeyEncryptionKey(text: string, variable: string): Buffer {
  const bytes = Buffer.from(text.trim(), 'base64');
  if (bytes.length !== 32)
    throw new RangeError(`${variable} must be the base64 of exactly 32 random bytes (openssl rand -base64 32)`);
  return bytes;
}
