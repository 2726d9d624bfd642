import { verify, X509Certificate } from 'node:crypto';
import { CODE_SIGNING_ALGORITHM, type CodeSigningResponse, codeSigningProofBody } from '@ferry/contracts';
import { parseDictionary } from 'structured-headers';
import type { AppCodeSigning } from './app-code-signing.js';

/** Extended key usage every Expo code-signing certificate must carry (expo-updates checks it). */
const CODE_SIGNING_EKU = '1.3.6.1.5.5.7.3.3';

export type CertificateProblem =
  | 'missing'
  | 'unreadable'
  | 'not-valid-now'
  | 'no-code-signing-usage'
  | 'algorithm'
  | 'proof'
  | 'key-id'
  | 'mismatch';

export type CertificateVerdict =
  | { ok: true; certificateSha256: string }
  | { ok: false; problem: CertificateProblem; message: string };

export interface CertificateVerdictInput {
  app: AppCodeSigning;
  /** The certificate file's text; undefined when the file does not exist. */
  pem: string | undefined;
  /** The server's answer to GET /api/updates/code-signing?nonce=… */
  server: CodeSigningResponse;
  nonce: string;
  now: Date;
}

const sha256Of = (pem: string): string | undefined => {
  try {
    return new X509Certificate(pem).fingerprint256;
  } catch {
    return undefined;
  }
};

/** `sig`, `keyid` and `alg` of an `expo-signature` value; undefined when it does not parse. */
export function signatureParts(header: string): { sig?: string; keyid?: string; alg?: string } | undefined {
  try {
    const dictionary = parseDictionary(header);
    const text = (name: string) => {
      const value = dictionary.get(name)?.[0];
      return typeof value === 'string' ? value : undefined;
    };
    return { sig: text('sig'), keyid: text('keyid'), alg: text('alg') };
  } catch {
    return undefined;
  }
}

/**
 * Would a build that embeds the app's certificate accept what this server signs? The checks a
 * device makes on every manifest (expo-updates, CodeSigningConfiguration), in its order: a
 * certificate valid now with the code-signing usage, the algorithm, the signature's key id equal to
 * the app's `codeSigningMetadata.keyid` (absent means `root`), and the RSA-SHA256 signature over the
 * signed bytes verified with the certificate's key. Every failure names the file and what to do.
 */
export function certificateVerdict(input: CertificateVerdictInput): CertificateVerdict {
  const { app, pem, server, nonce, now } = input;
  const file = app.certificatePath;
  const fail = (problem: CertificateProblem, message: string): CertificateVerdict => ({ ok: false, problem, message });
  const serverSide = `the server signs with the certificate SHA-256 ${sha256Of(server.certificate) ?? '(unreadable)'} and key id "${server.keyId}"`;

  if (pem === undefined) {
    return fail(
      'missing',
      `${file} does not exist. The app config names it as updates.codeSigningCertificate: every build embeds it ` +
        `and verifies each manifest with it. Commit it (Expo's templates ignore *.pem: add \`!${file}\` to .gitignore; ` +
        '`npx ferry init` does), or put the server’s certificate there.',
    );
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    return fail('unreadable', `${file} is not a readable PEM certificate, so builds cannot verify any manifest.`);
  }
  const validFrom = new Date(certificate.validFrom);
  const validTo = new Date(certificate.validTo);
  if (now < validFrom || now > validTo) {
    return fail(
      'not-valid-now',
      `${file} is valid from ${validFrom.toISOString()} to ${validTo.toISOString()}, not now: devices reject every ` +
        'update signed under it. Issue a new certificate (`npx ferry keys generate`) and ship it in a new store build.',
    );
  }
  if (!(certificate.keyUsage ?? []).includes(CODE_SIGNING_EKU)) {
    return fail(
      'no-code-signing-usage',
      `${file} lacks the code-signing extended key usage (${CODE_SIGNING_EKU}), which expo-updates requires. ` +
        'Generate it with `npx ferry keys generate` or `npx expo-updates codesigning:generate`.',
    );
  }
  if (app.alg !== CODE_SIGNING_ALGORITHM) {
    return fail(
      'algorithm',
      `The app config's codeSigningMetadata.alg is "${app.alg}"; the only algorithm is "${CODE_SIGNING_ALGORITHM}".`,
    );
  }
  const parts = signatureParts(server.proof.signature);
  if (server.proof.body !== codeSigningProofBody(nonce) || !parts?.sig) {
    return fail('proof', 'The server did not sign the challenge it was sent; is the server URL a Ferry server?');
  }
  const signedKeyId = parts.keyid ?? 'root';
  if (signedKeyId !== app.keyId) {
    return fail(
      'key-id',
      `The server signs with key id "${signedKeyId}", but the app config's codeSigningMetadata.keyid is ` +
        `"${app.keyId}": builds with ${file} reject every manifest of this server. Make them equal ` +
        '(the server’s OTA_SIGNING_KEY_ID, `keyid` of updatesConfig()).',
    );
  }
  const verified = verify(
    'sha256',
    Buffer.from(server.proof.body, 'utf8'),
    certificate.publicKey,
    Buffer.from(parts.sig, 'base64'),
  );
  if (!verified) {
    return fail(
      'mismatch',
      `${file} does not verify this server's signatures: ${serverSide}, the app embeds ${certificate.fingerprint256}. ` +
        `Builds with ${file} would reject every update. Put the server's certificate in ${file} ` +
        '(OTA_SIGNING_CERT_PATH of the server), or give the server the private key of this certificate.',
    );
  }
  return { ok: true, certificateSha256: certificate.fingerprint256 };
}
