import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { FerryHttpError } from '@ferry/contracts';
import type { FerryClient } from '../http/ferry-client.js';
import type { AppCodeSigning } from './app-code-signing.js';
import { type CertificateVerdict, certificateVerdict } from './certificate-verdict.js';

/** The certificate file's text, or undefined when there is no such file. */
export async function readCertificate(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Asks the server to sign a fresh nonce and checks the signature as a build embedding the app's
 * certificate would (certificate-verdict.ts). A server that cannot answer (unreachable, too old to
 * have the endpoint) is a failure too: nothing proves the builds would accept its updates.
 */
export async function checkServerSignature(
  client: Pick<FerryClient, 'codeSigning' | 'codeSigningPath'>,
  app: AppCodeSigning,
  now: Date = new Date(),
): Promise<CertificateVerdict> {
  const pem = await readCertificate(app.certificateFile);
  const nonce = randomBytes(24).toString('base64url');
  // A missing file is the app's own problem: reported without asking the server.
  if (pem === undefined) return certificateVerdict({ app, pem, server: placeholder, nonce, now });
  let server: Awaited<ReturnType<FerryClient['codeSigning']>>;
  try {
    server = await client.codeSigning(nonce);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // APP_NOT_FOUND is a 404 too, but of a server that knows apps: its message says what to do.
    const tooOld =
      error instanceof FerryHttpError &&
      (error.status === 404 || error.status === 405) &&
      error.code !== 'APP_NOT_FOUND'
        ? ` The server has no ${client.codeSigningPath}: it is older than this CLI; upgrade it.`
        : '';
    return {
      ok: false,
      problem: 'proof',
      message: `Cannot check ${app.certificatePath} against the server's signatures: ${message}.${tooOld}`,
    };
  }
  return certificateVerdict({ app, pem, server, nonce, now });
}

/** Stands in for the server's answer when the file is missing: the verdict stops at the file. */
const placeholder = { keyId: '', alg: 'rsa-v1_5-sha256', certificate: '', proof: { body: '', signature: '' } } as const;
