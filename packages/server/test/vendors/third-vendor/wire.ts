/**
 * A vendor that exists only in the test suite, to prove that adding a vendor is one folder named in
 * a registry (docs/certificates.md, "Adding a vendor"). Its wire format, shared by its client and
 * its simulator, as a real vendor's lives in @ferry/contracts/vendors: JSON in and out,
 * `POST /issue/<document>` with `authorization: Key <key>`. It encrypts nothing of its own (it
 * only ever talks to its simulator on loopback); a real vendor's folder encrypts as that vendor
 * requires.
 */

export const TEST_VENDOR = 'TEST_VENDOR';

export interface TestVendorRequestBody {
  provider: string;
  birthDate: string;
  /** The whole resident registration number. */
  number: string;
  address?: { sido: string; sigg: string };
  family?: string[];
  /** The second call only: the session the first call answered (the vendor's stepData). */
  session?: string;
}

export interface TestVendorAnswer {
  /** STARTED (first call), OK (issued), or a result code of result-codes.ts. */
  code: string;
  session?: string;
  /** The PDF, Base64. */
  pdf?: string;
  reference?: string;
}
