import type { VendorBTokenResponse } from '@ferry/contracts/vendors';
import { decodeJwt } from 'jose';
import { VendorFailure, type VendorTiming } from '../vendor-client.js';
import { parseVendorJson, vendorExchange } from '../vendor-http.js';

export interface AccessTokenSource {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Renew this long before expiry: a token must not run out between our check and the vendor's. */
const RENEW_BEFORE_MS = 60 * 60 * 1000;

/**
 * VENDOR_B's OAuth client-credentials token, cached until it nears expiry (the token is a JWT;
 * its `exp` wins over `expires_in`). Concurrent callers share one request, so a burst of users
 * costs one token call.
 */
export class AccessTokenCache {
  private token: { value: string; expiresAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly source: AccessTokenSource,
    private readonly now: () => number = Date.now,
    private readonly timing?: VendorTiming,
  ) {}

  async get(signal: AbortSignal): Promise<string> {
    const cached = this.token;
    if (cached && this.now() < cached.expiresAt - Math.min(RENEW_BEFORE_MS, (cached.expiresAt - this.now()) / 2)) {
      return cached.value;
    }
    this.inFlight ??= this.fetchToken(signal).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forget a token the vendor refused (401), so the next get() fetches a new one. */
  invalidate(rejected: string): void {
    if (this.token?.value === rejected) this.token = undefined;
  }

  private async fetchToken(signal: AbortSignal): Promise<string> {
    const basic = Buffer.from(`${this.source.clientId}:${this.source.clientSecret}`).toString('base64');
    const timing = this.timing;
    const response = await vendorExchange(
      this.source.tokenUrl,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials&scope=read',
      },
      signal,
      timing && ((seconds) => timing('token', seconds)),
    );
    if (response.status !== 200) {
      throw new VendorFailure('unavailable', `HTTP ${response.status}`, 'The vendor refused our access token request.');
    }
    const body = parseVendorJson(response.body) as Partial<VendorBTokenResponse> | null;
    const value = body?.access_token;
    if (typeof value !== 'string' || value.length === 0) {
      throw new VendorFailure('unavailable', null, 'The vendor answered without an access token.');
    }
    this.token = { value, expiresAt: this.expiryOf(value, body?.expires_in) };
    return value;
  }

  private expiryOf(token: string, expiresIn: unknown): number {
    try {
      const { exp } = decodeJwt(token);
      if (typeof exp === 'number') return exp * 1000;
    } catch {
      // Not a JWT: fall back to expires_in.
    }
    const seconds = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 3600;
    return this.now() + seconds * 1000;
  }
}
