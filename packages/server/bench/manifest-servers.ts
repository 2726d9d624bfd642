/**
 * The servers of `npm run bench:manifest`, each in a child process of its own (this file is the
 * child's entry point): Ferry as buildApp makes it, and bare node:http answering a canned answer.
 * The parent starts them with startServer and stops them with stopServer (SIGTERM, then wait).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  convertCertificateToCertificatePEM,
  generateSelfSignedCodeSigningCertificate,
} from '@expo/code-signing-certificates';
import forge from 'node-forge';

const SELF = fileURLToPath(import.meta.url);

export interface Server {
  child: ChildProcess;
  url: string;
}
/** What bare Node answers (Ferry's own manifest answer); the body in base64. */
export interface Canned {
  headers: Record<string, string>;
  body: string;
}

/** Child role: Ferry as buildApp makes it, on DATA_DIR; a restart keeps the port, so URLs stay valid. */
async function serveFerry(port: number, dataDir: string, token: string): Promise<void> {
  const [{ buildApp }, { loadConfig }] = await Promise.all([
    import('../src/app.js'),
    import('../src/config/config.js'),
  ]);
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // An updates-only instance: the certificate area's development defaults would run vendor
    // simulators and sweeps in the same process.
    FERRY_AREAS: 'ota',
    OTA_RELEASE_TOKEN: token,
    OTA_SIGNING_KEY_PATH: path.join(dataDir, 'signing-key.pem'),
    OTA_SIGNING_CERT_PATH: path.join(dataDir, 'signing-cert.pem'),
    OBJECT_URL_SIGNING_SECRET: 'bench-object-url-signing-secret-0123456789',
    // The set-up and each round publish 1,000 releases within seconds; the release endpoints'
    // default limit (120 per minute per token) would answer most of them 429.
    RELEASE_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const app = await buildApp({ config });
  await app.listen({ port, host: '127.0.0.1' });
  const stop = () => void app.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.('listening');
}

/** Child role: node:http answering the bytes and headers Ferry answered, the floor any server adds to. */
function serveBare(port: number): void {
  process.once('message', (canned: Canned) => {
    const body = Buffer.from(canned.body, 'base64');
    const headers = { ...canned.headers, 'content-length': body.length };
    const server = http.createServer((_request, response) => response.writeHead(200, headers).end(body));
    server.listen(port, '127.0.0.1', () => process.send?.('listening'));
  });
  process.once('disconnect', () => process.exit(0));
}

/** Starts a server child on `port` and waits until it listens; Ferry's args are DATA_DIR and the release token. */
export async function startServer(
  role: 'ferry' | 'bare',
  port: number,
  args: string[],
  canned?: Canned,
): Promise<Server> {
  const child = fork(SELF, [role, String(port), ...args], {
    execArgv: ['--conditions=@ferry/source', '--import', 'tsx'],
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  if (canned) child.send(canned);
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code, signal) => reject(new Error(`the ${role} server exited (${code ?? signal}) on start`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

export async function stopServer({ child }: Server): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** A code-signing key and certificate as `expo-updates codesigning:generate` makes them, kept across restarts. */
export function writeSigningKey(dataDir: string): void {
  const pem = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const certificate = generateSelfSignedCodeSigningCertificate({
    keyPair: {
      privateKey: forge.pki.privateKeyFromPem(pem.privateKey),
      publicKey: forge.pki.publicKeyFromPem(pem.publicKey),
    },
    validityNotBefore: new Date(Date.now() - 60_000),
    validityNotAfter: new Date(Date.now() + 365 * 86_400_000),
    commonName: 'Ferry bench',
  });
  fs.writeFileSync(path.join(dataDir, 'signing-key.pem'), pem.privateKey);
  fs.writeFileSync(path.join(dataDir, 'signing-cert.pem'), convertCertificateToCertificatePEM(certificate));
}

if (process.argv[1] === SELF) {
  const [role, port, dataDir, token] = process.argv.slice(2);
  if (role === 'ferry') await serveFerry(Number(port), dataDir!, token!);
  else if (role === 'bare') serveBare(Number(port));
}
