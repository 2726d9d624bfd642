import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../src/signing/development-signing-key.js';
import { type SpawnedServer, spawnServer as spawn } from './support/spawn-server.js';
import { vendorAccountsEnv } from './support/vendor-accounts.js';

// The real entry point (what `npm start` runs) with one area switched off (FERRY_AREAS).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-areas-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const dataDir = () => path.join(root, `data-${++dirs}`);

const servers: SpawnedServer[] = [];
const spawnServer = (env: Record<string, string>) => {
  const server = spawn(env);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
});

const signing = generateSigningKey('areas test');
const keyFile = path.join(root, 'key.pem');
const certFile = path.join(root, 'cert.pem');
fs.writeFileSync(keyFile, signing.privateKeyPem);
fs.writeFileSync(certFile, signing.certificatePem);

const RELEASE_TOKEN = `release-${randomBytes(12).toString('hex')}`;
const OPERATOR_TOKEN = `operator-${randomBytes(12).toString('hex')}`;
const OBJECTS = { OBJECT_URL_SIGNING_SECRET: randomBytes(32).toString('base64url') };

/** Everything a production OTA instance needs, and nothing of the certificate area. */
const OTA_VARIABLES = {
  NODE_ENV: 'production',
  OTA_RELEASE_TOKEN: RELEASE_TOKEN,
  OTA_SIGNING_KEY_PATH: keyFile,
  OTA_SIGNING_CERT_PATH: certFile,
  ...OBJECTS,
};

/** Everything a production certificate instance needs, and nothing of the OTA area. */
const CERTIFICATE_VARIABLES = {
  NODE_ENV: 'production',
  CERT_AES_KEY: randomBytes(32).toString('base64'),
  AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
  OPERATOR_TOKEN,
  ...(await vendorAccountsEnv()),
  ...OBJECTS,
};

const manifestRequest = {
  headers: {
    'expo-platform': 'ios',
    'expo-runtime-version': '1.0.0(1)',
    'expo-channel-name': 'production',
    'expo-protocol-version': '1',
  },
};

const createAssignment = (url: string, token: string) =>
  fetch(`${url}/v2/operator/assignments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: 'user-1', certificateVendor: 'VENDOR_A', title: 'Submit your certificate' }),
  });

async function expectNotFound(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect((await response.json()).error.code).toBe('NOT_FOUND');
}

describe('NODE_ENV=production with one area', () => {
  it('FERRY_AREAS=ota starts with only the OTA variables and says so', async () => {
    const server = spawnServer({ DATA_DIR: dataDir(), FERRY_AREAS: 'ota', ...OTA_VARIABLES });
    const url = await server.ready();
    expect(server.output()).toMatch(/"msg":"areas: ota on, certificates off"/);
    expect(server.output()).not.toMatch(/simulator/i);
    expect(server.output()).not.toMatch(/DEVELOPMENT mode/);

    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await fetch(`${url}/api/updates/manifest`, manifestRequest)).status).toBe(204);
    await expectNotFound(await fetch(`${url}/v2/user/assignments/00000000-0000-4000-8000-000000000000`));
    await expectNotFound(await fetch(`${url}/`));
    expect(await server.stop()).toBe(0);
  });

  it('FERRY_AREAS=certificates starts with only the certificate variables and says so', async () => {
    const server = spawnServer({ DATA_DIR: dataDir(), FERRY_AREAS: 'certificates', ...CERTIFICATE_VARIABLES });
    const url = await server.listening;
    expect(server.output()).toMatch(/"msg":"areas: ota off, certificates on"/);
    expect(server.output()).not.toMatch(/simulator in use/);
    expect(server.output()).not.toMatch(/OTA_SIGNING_KEY/);

    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await createAssignment(url, OPERATOR_TOKEN)).status).toBe(201);
    await expectNotFound(await fetch(`${url}/api/updates/manifest`, manifestRequest));
    expect(await server.stop()).toBe(0);
  });

  it.each<[string, Record<string, string>, RegExp, RegExp]>([
    [
      'FERRY_AREAS=ota without OTA_RELEASE_TOKEN',
      { FERRY_AREAS: 'ota', ...OTA_VARIABLES, OTA_RELEASE_TOKEN: '' },
      /OTA_RELEASE_TOKEN is required/,
      /CERT_AES_KEY/,
    ],
    [
      'both areas (the default) with only the OTA variables',
      OTA_VARIABLES,
      /CERT_AES_KEY is required/,
      /OTA_RELEASE_TOKEN/,
    ],
    [
      'both areas with only the certificate variables',
      CERTIFICATE_VARIABLES,
      /OTA_RELEASE_TOKEN is required/,
      /CERT_AES_KEY/,
    ],
    ['an unknown area', { FERRY_AREAS: 'ota,web', ...OTA_VARIABLES }, /Invalid FERRY_AREAS/, /CERT_AES_KEY/],
  ])('%s stops start-up naming the variable', async (_case, env, message, notMentioned) => {
    const server = spawnServer({ DATA_DIR: dataDir(), ...env });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(message);
    expect(server.output()).not.toMatch(notMentioned);
    expect(server.output()).not.toMatch(/Server listening/);
  });
});

describe('development with one area', () => {
  it('FERRY_AREAS=ota makes only the OTA defaults and starts no vendor simulator', async () => {
    const dir = dataDir();
    const server = spawnServer({ DATA_DIR: dir, FERRY_AREAS: 'ota' });
    const url = await server.listening;
    expect(server.output()).toContain('Areas (FERRY_AREAS): ota on, certificates off');
    expect(server.output()).toMatch(/Release token \(shown once/);
    expect(server.output()).not.toMatch(/simulator|Certificate AES key/);
    expect(fs.readdirSync(path.join(dir, 'dev')).sort()).toEqual([
      'app-keys.secret',
      'code-signing',
      'object-url-secret',
      'release-token',
    ]);
    const token = fs.readFileSync(path.join(dir, 'dev/release-token'), 'utf8').trim();
    const releases = await fetch(`${url}/api/updates/releases?channel=production&platform=ios&runtimeVersion=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(releases.status).toBe(200);
    await expectNotFound(await fetch(`${url}/dev/web-config`));
    expect(await server.stop()).toBe(0);
  });

  it('FERRY_AREAS=certificates makes only the certificate defaults; the development token is the operator token', async () => {
    const dir = dataDir();
    const server = spawnServer({ DATA_DIR: dir, FERRY_AREAS: 'certificates' });
    const url = await server.listening;
    expect(server.output()).toContain('Areas (FERRY_AREAS): ota off, certificates on');
    expect(server.output()).toMatch(/Operator token of POST \/v2\/operator\/assignments \(shown once/);
    expect(server.output()).toMatch(/VENDOR_A simulator: http/);
    expect(server.output()).not.toMatch(/Code-signing certificate|Release token/);
    expect(fs.readdirSync(path.join(dir, 'dev')).sort()).toEqual([
      'cert-aes-key',
      'jwt-secret',
      'object-url-secret',
      'release-token',
    ]);
    const token = fs.readFileSync(path.join(dir, 'dev/release-token'), 'utf8').trim();
    expect((await createAssignment(url, token)).status).toBe(201);
    expect((await fetch(`${url}/dev/web-config`)).status).toBe(200);
    await expectNotFound(await fetch(`${url}/api/updates/manifest`, manifestRequest));
    expect(await server.stop()).toBe(0);
  });
});
