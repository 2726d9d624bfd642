/**
 * The servers of `npm run bench:manifest`, each in a child process of its own running plain Node
 * (servers/*.mjs): Ferry built (dist/, as deployed), and bare node:http answering a canned answer.
 * The parent starts them with startServer and stops them with stopServer (SIGTERM, then wait), and
 * brings dist/ up to date first (buildServer).
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  convertCertificateToCertificatePEM,
  generateSelfSignedCodeSigningCertificate,
} from '@expo/code-signing-certificates';
import forge from 'node-forge';

const SERVERS = fileURLToPath(new URL('./servers/', import.meta.url));

export interface Server {
  child: ChildProcess;
  url: string;
}
/** What bare Node answers (Ferry's own manifest answer); the body in base64. */
export interface Canned {
  headers: Record<string, string>;
  body: string;
}

/**
 * Starts a server child on `port` and waits until it listens; Ferry's args are DATA_DIR and the
 * release token. `env` is added to this process's environment for it (ferry.mjs reads BENCH_WARM_UP).
 */
export async function startServer(
  role: 'ferry' | 'bare',
  port: number,
  args: string[],
  canned?: Canned,
  env: Record<string, string> = {},
): Promise<Server> {
  const child = fork(path.join(SERVERS, `${role}.mjs`), [String(port), ...args], {
    execArgv: [],
    stdio: ['ignore', 2, 2, 'ipc'],
    env: { ...process.env, ...env },
  });
  if (canned) child.send(canned);
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code, signal) => reject(new Error(`the ${role} server exited (${code ?? signal}) on start`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Compiles the server and what it uses (tsc -b, incremental: quick when nothing changed), so the Ferry child runs today's code. */
export function buildServer(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  const built = spawnSync(process.execPath, [tsc, '-b', 'packages/server/tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the server did not build (tsc -b packages/server/tsconfig.build.json)');
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
