import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../src/ota/manifest/postgres-release-notifications.js';
import { type CertificateTestServer, newUser, residentBody, startCertificateServer } from './support/certificates.js';
import { describeEachEngine, type EngineName } from './support/engines.js';
import { releasePayload, storeAssets } from './support/releases.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/** The common error body of a route that does not exist on this instance. */
async function expectNotHere(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  expect(await response.json()).toEqual({
    error: { code: 'NOT_FOUND', message: expect.stringMatching(/^No route for /), details: {} },
  });
}

/** What a client of the route would send: a JSON body on POST. */
const jsonBodyFor = (method: string): RequestInit =>
  method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {};

const manifestHeaders = {
  'ota-platform': 'ios',
  'ota-runtime-version': '1.0.0(1)',
  'ota-channel-name': 'production',
  accept: 'application/json',
};

/** Every route of the certificate area, including the development routes and the web funnel. */
const CERTIFICATE_ROUTES: Array<[method: string, path: string]> = [
  ['POST', '/v2/user/certificate/resident-certificate'],
  ['POST', '/v2/user/certificate/resident-abstract'],
  ['POST', '/v2/user/certificate/family-relations'],
  ['GET', '/v2/user/assignments/00000000-0000-4000-8000-000000000000'],
  ['POST', '/v2/operator/assignments'],
  ['POST', '/dev/sign-in'],
  ['GET', '/dev/web-config'],
  ['GET', '/'],
  ['GET', '/index.html'],
];

/** Every route of the OTA area. */
const OTA_ROUTES: Array<[method: string, path: string]> = [
  ['GET', '/api/updates/manifest'],
  ['POST', '/api/updates/release'],
  ['GET', '/api/updates/releases?channel=production&platform=ios&runtimeVersion=1.0.0(1)'],
  ['POST', '/api/updates/rollback'],
  ['POST', '/api/updates/assets'],
  ['GET', '/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=1.0.0(1)'],
  ['GET', '/api/audit-events'],
  ['POST', '/api/updates/gc'],
];

/** Instances of this test's database that hold the release LISTEN connection (PostgreSQL only). */
async function releaseListeners(server: TestServer): Promise<number> {
  const client = new pg.Client({ connectionString: server.database.location });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [LISTENER_APPLICATION_NAME],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Objects stay on in every area: a stored update asset is served at /objects. */
async function expectObjectsServed(server: TestServer): Promise<void> {
  const key = 'updates/production/1.0.0(1)/assets/areas-test';
  await server.app.objectStore.put(key, Buffer.from('asset bytes'), { contentType: 'text/plain' });
  const response = await fetch(`${server.url}/objects/${key.split('/').map(encodeURIComponent).join('/')}`);
  expect(response.status).toBe(200);
  expect(await response.text()).toBe('asset bytes');
}

async function expectHealthy(server: TestServer): Promise<void> {
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
}

describeEachEngine('FERRY_AREAS=ota', (engine: EngineName) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { env: { FERRY_AREAS: 'ota' } });
  });
  afterAll(async () => server?.close());

  it.each(CERTIFICATE_ROUTES)('%s %s answers 404 with the common error body', async (method, path) => {
    await expectNotHere(await fetch(`${server.url}${path}`, { method, ...jsonBodyFor(method) }));
  });

  it('publishes and serves manifests', async () => {
    await storeAssets(server, releasePayload());
    const published = await server.authed('/api/updates/release', {
      method: 'POST',
      body: JSON.stringify(releasePayload()),
    });
    expect(published.status).toBe(201);
    const { release } = await published.json();
    const manifest = await fetch(`${server.url}/api/updates/manifest`, { headers: manifestHeaders });
    expect(manifest.status).toBe(200);
    expect((await manifest.json()).id).toBe(release.id);
    expect(manifest.headers.get('ota-signature')).toMatch(/sig="/);
  });

  it('keeps health and objects on', async () => {
    await expectHealthy(server);
    await expectObjectsServed(server);
  });

  it('starts no vendor simulator and no certificate module (so no retention sweep)', () => {
    expect(server.app.hasDecorator('certificates')).toBe(false);
    expect(server.logs.text).not.toMatch(/vendor simulator in use/);
    expect(server.logs.text).not.toMatch(/CERT_AES_KEY|AUTH_JWT_SECRET/);
  });

  it('says which areas are on', () => {
    expect(server.logs.entries()).toContainEqual(
      expect.objectContaining({ msg: 'areas: ota on, certificates off', areas: { ota: true, certificates: false } }),
    );
  });

  if (engine === 'postgres') {
    it('listens for other instances’ releases', async () => {
      expect(await releaseListeners(server)).toBe(1);
    });
  }
});

describeEachEngine('FERRY_AREAS=certificates', (engine: EngineName) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { env: { FERRY_AREAS: 'certificates' } });
  });
  afterAll(async () => server?.close());

  it.each(OTA_ROUTES)(
    '%s %s answers 404 with the common error body, even with the release token',
    async (method, path) => {
      await expectNotHere(await server.authed(path, { method, headers: manifestHeaders, ...jsonBodyFor(method) }));
    },
  );

  it('issues certificates: assignment, then the first call through the vendor simulator', async () => {
    const user = newUser();
    const assignmentId = await server.createAssignment(user, 'VENDOR_A');
    const token = await server.tokenFor(user);
    const assignment = await fetch(`${server.url}/v2/user/assignments/${assignmentId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(assignment.status).toBe(200);
    const first = await server.post('resident-certificate', residentBody({ assignmentId }), token);
    expect(first.status).toBe(200);
    expect(server.vendorCalls()).toBeGreaterThan(0);
  });

  it('keeps health and objects on', async () => {
    await expectHealthy(server);
    await expectObjectsServed(server);
  });

  it('builds no manifest delivery: no manifest route, no signing-key warning', async () => {
    const response = await fetch(`${server.url}/api/updates/manifest`, {
      headers: { 'expo-platform': 'ios', 'expo-runtime-version': '1.0.0', 'expo-channel-name': 'production' },
    });
    expect(response.status).toBe(404);
    expect(server.logs.text).not.toMatch(/OTA_SIGNING_KEY|ephemeral key/);
  });

  it('says which areas are on', () => {
    expect(server.logs.entries()).toContainEqual(
      expect.objectContaining({ msg: 'areas: ota off, certificates on', areas: { ota: false, certificates: true } }),
    );
  });

  if (engine === 'postgres') {
    it('does not LISTEN for releases', async () => {
      expect(await releaseListeners(server)).toBe(0);
    });
  }
});

describe('FERRY_AREAS=certificates without OPERATOR_TOKEN (buildApp, no development defaults)', () => {
  it('has no operator endpoint: the release token is not read, so it cannot stand in', async () => {
    const server = await startTestServer('sqlite', {
      env: { FERRY_AREAS: 'certificates', VENDOR_SIM_APPROVAL_DELAY_MS: 'never' },
    });
    try {
      const response = await server.authed('/v2/operator/assignments', {
        method: 'POST',
        body: JSON.stringify({ userId: 'u', certificateVendor: 'VENDOR_A', title: 't' }),
      });
      await expectNotHere(response);
    } finally {
      await server.close();
    }
  });
});
