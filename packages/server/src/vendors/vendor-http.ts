import { VendorFailure } from './vendor-client.js';

export interface VendorHttpResponse {
  status: number;
  body: string;
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/**
 * One HTTP exchange with a vendor under the operation's deadline: the body is read under the same
 * signal, so a vendor that sends headers and then stalls cannot hold the request past the timeout.
 * Network failures become VendorFailure('unavailable'), an expired deadline VendorFailure('timeout').
 */
export async function vendorExchange(url: string, init: RequestInit, signal: AbortSignal): Promise<VendorHttpResponse> {
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'error' });
    const body = await response.text();
    return { status: response.status, body };
  } catch (error) {
    if (signal.aborted || isAbort(error)) {
      throw new VendorFailure('timeout', null, 'The vendor did not answer in time.');
    }
    throw new VendorFailure('unavailable', null, 'The vendor could not be reached.');
  }
}

/** Parses a vendor's JSON; anything unreadable is the vendor's fault (502), never ours. */
export function parseVendorJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new VendorFailure('unavailable', null, 'The vendor answered with an unreadable body.');
  }
}
