import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { VendorFailure } from './vendor-client.js';

export interface VendorHttpResponse {
  status: number;
  body: string;
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/**
 * Vendor calls go through undici's request API on one keep-alive agent rather than fetch: fetch
 * wraps every exchange in WHATWG Request/Response objects and web streams, work a server-to-server
 * call with a known body does not need on a path every certificate request takes.
 * Sockets to each vendor are reused; no pipelining, since a slow vendor answer must not hold up
 * the requests queued behind it on the same socket.
 */
const vendorAgent = new Agent({ keepAliveTimeout: 10_000, connections: null, pipelining: 1 });

export interface VendorHttpRequest {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
}

/**
 * One HTTP exchange with a vendor under the operation's deadline: the body is read under the same
 * signal, so a vendor that sends headers and then stalls cannot hold the request past the timeout.
 * Network failures become VendorFailure('unavailable'), an expired deadline VendorFailure('timeout').
 * Redirects are not followed (a vendor API never redirects; one that does is answered as a failure).
 * `timed` is told the exchange's duration in seconds, body included, whether it succeeded or not.
 */
export async function vendorExchange(
  url: string,
  init: VendorHttpRequest,
  signal: AbortSignal,
  timed?: (seconds: number) => void,
): Promise<VendorHttpResponse> {
  const started = performance.now();
  try {
    const response = await request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal,
      dispatcher: vendorAgent,
    });
    const body = await response.body.text();
    if (response.statusCode >= 300 && response.statusCode < 400) {
      throw new VendorFailure('unavailable', null, 'The vendor could not be reached.');
    }
    return { status: response.statusCode, body };
  } catch (error) {
    if (error instanceof VendorFailure) throw error;
    if (signal.aborted || isAbort(error)) {
      throw new VendorFailure('timeout', null, 'The vendor did not answer in time.');
    }
    throw new VendorFailure('unavailable', null, 'The vendor could not be reached.');
  } finally {
    timed?.((performance.now() - started) / 1000);
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
