import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an HMAC-signed object URL grants: one method on one key until `expires` (unix seconds). */
export interface ObjectGrant {
  method: 'GET' | 'PUT';
  key: string;
  expires: number;
  /** PUT only: the content type the upload must declare. */
  contentType?: string;
  /** PUT only: unpadded base64url SHA-256 the uploaded bytes must have. */
  sha256?: string;
  /** PUT only: exact byte count of the upload. */
  size?: number;
}

export type GrantCheck = { ok: true } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

/** The longest a signed URL may live; longer requests are clamped. */
export const MAX_SIGNED_URL_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Signs and checks the local store's object URLs. The signature covers every field of the grant
 * (method, key, expiry and the upload constraints), so changing any of them voids it.
 */
export class ObjectUrlSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (secret.length < 32) throw new Error('the object URL signing secret must be at least 32 bytes');
  }

  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  expiresIn(ttlSeconds: number): number {
    const ttl = Math.min(Math.max(Math.floor(ttlSeconds), 1), MAX_SIGNED_URL_TTL_SECONDS);
    return this.nowSeconds() + ttl;
  }

  sign(grant: ObjectGrant): string {
    const canonical = [
      'ferry-object-v1',
      grant.method,
      grant.key,
      String(grant.expires),
      grant.contentType ?? '',
      grant.sha256 ?? '',
      grant.size === undefined ? '' : String(grant.size),
    ].join('\n');
    return createHmac('sha256', this.secret).update(canonical).digest('base64url');
  }

  /** The query string (without `?`) that carries a grant. */
  toQuery(grant: ObjectGrant): string {
    const query = new URLSearchParams({ expires: String(grant.expires) });
    if (grant.sha256 !== undefined) query.set('sha256', grant.sha256);
    if (grant.size !== undefined) query.set('size', String(grant.size));
    query.set('signature', this.sign(grant));
    return query.toString();
  }

  /** Reads a grant back from a request's query; the content type comes from the request header. */
  check(grant: Omit<ObjectGrant, 'expires'> & { expires: unknown }, signature: unknown): GrantCheck {
    if (typeof signature !== 'string' || signature === '' || grant.expires === undefined) {
      return { ok: false, reason: 'missing' };
    }
    if (typeof grant.expires !== 'string' || !/^\d{1,12}$/.test(grant.expires)) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(this.sign({ ...grant, expires: Number(grant.expires) }));
    const presented = Buffer.from(signature);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return { ok: false, reason: 'invalid' };
    }
    if (Number(grant.expires) < this.nowSeconds()) return { ok: false, reason: 'expired' };
    return { ok: true };
  }
}
