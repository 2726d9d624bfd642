import { type CertificateDocument, formOf, type ProviderCode } from '@ferry/contracts';
import { SensitiveDigits } from '../../src/certificates/sensitive-digits.js';
import type { VendorIssuanceRequest } from '../../src/vendors/vendor-client.js';

/** Vendor-neutral requests for the client ↔ simulator contract tests. */
export function vendorRequest(
  document: CertificateDocument,
  options: { provider?: ProviderCode; back?: string } = {},
): VendorIssuanceRequest {
  const base = {
    provider: options.provider ?? 'provider_a',
    identity: { front: '880415', back: new SensitiveDigits(options.back ?? '1572936') },
  };
  return formOf(document) === 'family'
    ? { ...base, document, form: 'family', family: { father: '홍길동', mother: null, spouse: null, child: null } }
    : { ...base, document, form: 'resident', address: { sido: '서울특별시', sigg: '강남구' } };
}

/**
 * The signal a vendor call runs under. Without `ms`, one that never fires: an ordinary call waits for
 * its answer however busy the machine is (the test's hang guard bounds a hang). With `ms`, a real
 * deadline, for the tests of what the client does when it passes.
 */
export const deadline = (ms?: number) => ({
  signal: ms === undefined ? new AbortController().signal : AbortSignal.timeout(ms),
});

export const control = (url: string, path: string, body?: unknown, method = 'POST') =>
  fetch(`${url}/_control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
