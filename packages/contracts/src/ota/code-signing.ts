import { z } from 'zod';

/**
 * GET /api/updates/code-signing: the server's code-signing identity, and a proof that its private
 * key is the one behind it. `ferry publish` and `ferry doctor` verify the proof with the certificate
 * the app embeds, exactly as a device verifies a manifest (RSA-SHA256 over the signed bytes, the
 * `keyid` of the signature equal to the app's `codeSigningMetadata.keyid`): an app whose certificate
 * does not verify it would reject every update this server sends.
 */

/** The only algorithm of the Expo code-signing spec. */
export const CODE_SIGNING_ALGORITHM = 'rsa-v1_5-sha256' as const;

/** A client's random challenge: base64url characters, so it needs no escaping anywhere. */
export const CodeSigningNonce = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, 'a random string of 16 to 128 base64url characters');

export const CodeSigningQuery = z.object({ nonce: CodeSigningNonce });
export type CodeSigningQuery = z.infer<typeof CodeSigningQuery>;

/**
 * The bytes the server signs for a nonce. Plain text, never JSON: a device parses every signed
 * part as a manifest or a directive, so a signed proof can never pass for either.
 */
export const codeSigningProofBody = (nonce: string): string => `ferry-code-signing-proof:${nonce}`;

export const CodeSigningResponse = z.object({
  /** The `keyid` every signature carries (OTA_SIGNING_KEY_ID). */
  keyId: z.string().min(1),
  alg: z.literal(CODE_SIGNING_ALGORITHM),
  /** The certificate the server signs under (PEM). Public: apps embed it. */
  certificate: z.string().min(1),
  proof: z.object({
    /** codeSigningProofBody(nonce) of the request. */
    body: z.string(),
    /** The `expo-signature` value over `body`: an RFC 8941 dictionary `sig="…", keyid="…", alg="…"`. */
    signature: z.string().min(1),
  }),
});
export type CodeSigningResponse = z.infer<typeof CodeSigningResponse>;
