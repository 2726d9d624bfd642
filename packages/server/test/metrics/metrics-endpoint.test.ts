import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { HOT_OBJECT_MAX_BYTES } from '../../src/storage/objects/asset-delivery.js';
import { updateAssetKey } from '../../src/storage/objects/object-key.js';
import {
  bodyFor,
  type CertificateTestServer,
  newUser,
  secondBodyFor,
  startCertificateServer,
  unwrap,
} from '../support/certificates.js';
import { createTestDatabase, describeEachEngine } from '../support/engines.js';
import { type Exposition, sampleSum, scrape } from '../support/prometheus.js';
import { hashOfBytes } from '../support/publisher.js';
import { LogCapture, startTestServer, TEST_RELEASE_TOKEN, type TestServer } from '../support/test-server.js';

const METRICS_TOKEN = `test-metrics-token-${randomBytes(8).toString('hex')}`;

/** A GET whose body arrives exactly as sent (fetch would ask for and undo compression itself). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** The common error body of a refused request, and its status. */
async function refusal(response: Response): Promise<{ status: number; code: string; text: string }> {
  const text = await response.text();
  return { status: response.status, code: JSON.parse(text).error.code, text };
}

const FERRY_METRICS = [
  'ferry_manifest_requests_total',
  'ferry_manifest_duration_seconds',
  'ferry_manifest_no_release_total',
  'ferry_asset_bytes_served_total',
  'ferry_releases_published_total',
  'ferry_guard_blocked_total',
  'ferry_guard_bypassed_total',
  'ferry_rollout_changes_total',
  'ferry_rollout_halts_total',
  'ferry_failure_reports_total',
  'ferry_certificate_flows_total',
  'ferry_vendor_request_duration_seconds',
  'ferry_database_info',
  'ferry_database_pool_connections',
  'ferry_database_pool_idle_connections',
  'ferry_database_pool_waiting_requests',
  'ferry_database_pool_max_connections',
];

describeEachEngine('/metrics on the main port, behind METRICS_TOKEN', (engine) => {
  let server: CertificateTestServer;
  const read = (): Promise<Exposition> => scrape(`${server.url}/metrics`, METRICS_TOKEN);

  beforeAll(async () => {
    server = await startCertificateServer(engine, { env: { METRICS_TOKEN } });
  });
  afterAll(async () => server?.close());

  it('refuses a scrape without the token, or with another, with the common error body', async () => {
    const wrong = `not-the-metrics-token-${randomBytes(8).toString('hex')}`;
    const attempts = [
      await fetch(`${server.url}/metrics`),
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${wrong}` } }),
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Basic ${btoa(`x:${METRICS_TOKEN}`)}` } }),
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TEST_RELEASE_TOKEN}` } }),
    ];
    for (const response of attempts) {
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="ferry-metrics"');
      const { status, code, text } = await refusal(response);
      expect(status).toBe(401);
      expect(code).toBe('UNAUTHORIZED');
      expect(text).not.toContain(METRICS_TOKEN);
      expect(text).not.toContain(wrong);
    }
    expect(server.logs.text).not.toContain(METRICS_TOKEN);
    expect(server.logs.text).not.toContain(wrong);
  });

  it('answers the Prometheus text format, which a Prometheus parser reads whole', async () => {
    const exposition = await read();
    for (const name of FERRY_METRICS) expect(exposition.families.has(name), name).toBe(true);
    expect(exposition.families.get('ferry_manifest_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(exposition.families.get('ferry_certificate_flows_total')?.type).toBe('COUNTER');
    // prom-client's default process metrics come along.
    expect(exposition.families.has('process_cpu_user_seconds_total')).toBe(true);
    expect(exposition.families.has('nodejs_heap_size_used_bytes')).toBe(true);
    // Left out of the OpenAPI document: it is a scrape target, not part of the API.
    const openapi = await (await fetch(`${server.url}/docs/json`)).json();
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
  });

  it('reports the database: its engine, and the PostgreSQL pool as it is at the scrape', async () => {
    const exposition = await read();
    expect(sampleSum(exposition, 'ferry_database_info', { engine })).toBe(1);
    if (engine === 'sqlite') {
      expect(exposition.samples.get('ferry_database_pool_connections') ?? []).toEqual([]);
      return;
    }
    // One pool (the asynchronous-commit handle shares it); the test databases' holds 3
    // (support/engines.ts), opened on demand.
    expect(sampleSum(exposition, 'ferry_database_pool_max_connections', { pool: 'main' })).toBe(3);
    const open = sampleSum(exposition, 'ferry_database_pool_connections', { pool: 'main' });
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(3);
    expect(sampleSum(exposition, 'ferry_database_pool_idle_connections', { pool: 'main' })).toBeLessThanOrEqual(open);
    expect(sampleSum(exposition, 'ferry_database_pool_waiting_requests', { pool: 'main' })).toBe(0);
    expect(sampleSum(exposition, 'ferry_database_pool_max_connections', { pool: 'ephemeral' })).toBe(0);
  });

  it('counts the bytes of update assets sent, by encoding; HEAD and 304 send none', async () => {
    const text = Buffer.from(`export const value = '${randomBytes(16).toString('hex')}';\n`.repeat(2000));
    const key = updateAssetKey('default', 'production', '1.0.0(1)', hashOfBytes(text));
    await server.app.objectStore.put(key, text, { contentType: 'application/javascript' });
    await server.app.assetEncodings.prepare(key);
    const url = `${server.url}/objects/${key.split('/').map(encodeURIComponent).join('/')}`;
    const bytes = (exposition: Exposition, encoding: string) =>
      sampleSum(exposition, 'ferry_asset_bytes_served_total', { encoding });

    const before = await read();
    const brotli = await rawGet(url, { 'accept-encoding': 'br' });
    const gzip = await rawGet(url, { 'accept-encoding': 'gzip' });
    const identity = await rawGet(url, { 'accept-encoding': 'identity' });
    expect([brotli.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect(identity.body.equals(text)).toBe(true);
    expect((await rawGet(url, { 'accept-encoding': 'br' }, 'HEAD')).status).toBe(200);
    expect((await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': String(brotli.headers.etag) })).status).toBe(
      304,
    );
    const after = await read();
    expect(bytes(after, 'br') - bytes(before, 'br')).toBe(brotli.body.length);
    expect(bytes(after, 'gzip') - bytes(before, 'gzip')).toBe(gzip.body.length);
    expect(bytes(after, 'identity') - bytes(before, 'identity')).toBe(text.length);
  });

  it('counts an asset streamed from the store (above what is kept in memory) as well', async () => {
    const body = Buffer.concat([randomBytes(HOT_OBJECT_MAX_BYTES), Buffer.from('tail')]);
    const key = updateAssetKey('default', 'production', '1.0.0(1)', hashOfBytes(body));
    await server.app.objectStore.put(key, body, { contentType: 'image/png' });
    const before = await read();
    const response = await rawGet(`${server.url}/objects/${key.split('/').map(encodeURIComponent).join('/')}`);
    expect(response.body.equals(body)).toBe(true);
    const after = await read();
    const identity = (exposition: Exposition) =>
      sampleSum(exposition, 'ferry_asset_bytes_served_total', { encoding: 'identity' });
    expect(identity(after) - identity(before)).toBe(body.length);
  });

  it('counts certificate flows by document, vendor and outcome, and times each vendor exchange', async () => {
    const flows = (exposition: Exposition, labels: Record<string, string>) =>
      sampleSum(exposition, 'ferry_certificate_flows_total', labels);
    const exchanges = (exposition: Exposition, vendor: string, operation: string) =>
      sampleSum(exposition, 'ferry_vendor_request_duration_seconds_count', { vendor, operation });
    const before = await read();

    const token = await server.tokenFor(newUser());
    const first = await unwrap(
      'resident-certificate',
      await server.post('resident-certificate', bodyFor('resident-certificate', { vendor: 'VENDOR_A' }), token),
    );
    // Before the user approved: the vendor says pending.
    const early = await server.post('resident-certificate', secondBodyFor('resident-certificate', first), token);
    expect(early.status).toBe(409);
    await server.approve('VENDOR_A');
    const issued = await unwrap(
      'resident-certificate',
      await server.post('resident-certificate', secondBodyFor('resident-certificate', first), token),
    );
    expect(issued.preSignedUrl).toBeTruthy();
    const family = await server.post('family-relations', bodyFor('family-relations', { vendor: 'VENDOR_B' }), token);
    expect(family.status).toBe(200);

    const after = await read();
    const resident = { document: 'resident-certificate', vendor: 'VENDOR_A' };
    expect(flows(after, { ...resident, outcome: 'started' }) - flows(before, { ...resident, outcome: 'started' })).toBe(
      1,
    );
    expect(flows(after, { ...resident, outcome: 'pending' }) - flows(before, { ...resident, outcome: 'pending' })).toBe(
      1,
    );
    expect(flows(after, { ...resident, outcome: 'issued' }) - flows(before, { ...resident, outcome: 'issued' })).toBe(
      1,
    );
    const familyStarted = { document: 'family-relations', vendor: 'VENDOR_B', outcome: 'started' };
    expect(flows(after, familyStarted) - flows(before, familyStarted)).toBe(1);

    expect(
      exchanges(after, 'VENDOR_A', 'start-authentication') - exchanges(before, 'VENDOR_A', 'start-authentication'),
    ).toBe(1);
    expect(exchanges(after, 'VENDOR_A', 'complete-issuance') - exchanges(before, 'VENDOR_A', 'complete-issuance')).toBe(
      2,
    );
    expect(
      exchanges(after, 'VENDOR_B', 'start-authentication') - exchanges(before, 'VENDOR_B', 'start-authentication'),
    ).toBe(1);
    // VENDOR_B's OAuth token is fetched once and cached.
    expect(exchanges(after, 'VENDOR_B', 'token')).toBe(1);
    // Durations are real: positive, and each exchange's bucket counts end at its count.
    expect(sampleSum(after, 'ferry_vendor_request_duration_seconds_sum', { vendor: 'VENDOR_A' })).toBeGreaterThan(0);
    expect(
      sampleSum(after, 'ferry_vendor_request_duration_seconds_bucket', {
        vendor: 'VENDOR_A',
        operation: 'complete-issuance',
        le: '+Inf',
      }),
    ).toBe(exchanges(after, 'VENDOR_A', 'complete-issuance'));
  });

  it('counts a request the service refuses before any vendor call', async () => {
    const token = await server.tokenFor(newUser());
    const before = await read();
    // A second call with a state no first call handed out.
    const forged = await server.post(
      'resident-abstract',
      bodyFor('resident-abstract', { vendor: 'VENDOR_A', stepData: 'forged-step-data' }),
      token,
    );
    expect(forged.status).toBe(403);
    const after = await read();
    const labels = { document: 'resident-abstract', vendor: 'VENDOR_A', outcome: 'state-invalid' };
    expect(
      sampleSum(after, 'ferry_certificate_flows_total', labels) -
        sampleSum(before, 'ferry_certificate_flows_total', labels),
    ).toBe(1);
  });
});

describe('/metrics on a listener of its own (METRICS_PORT)', () => {
  let server: TestServer;
  let metricsUrl: string;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { METRICS_PORT: '0', FERRY_AREAS: 'ota' } });
    const address = server.app.metricsListener?.address();
    if (!address) throw new Error('the metrics listener did not start');
    metricsUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => server?.close());

  it('serves /metrics there without a token, bound to 127.0.0.1 by default', async () => {
    expect(server.app.metricsListener?.address()?.address).toBe('127.0.0.1');
    const exposition = await scrape(`${metricsUrl}/metrics`);
    expect(exposition.families.has('ferry_manifest_requests_total')).toBe(true);
    // The certificate area is off here: none of its metrics are exported.
    expect(exposition.families.has('ferry_certificate_flows_total')).toBe(false);
    expect(server.logs.text).toContain(`metrics: /metrics on 127.0.0.1:${new URL(metricsUrl).port}`);
  });

  it('leaves /metrics off the main port, and serves nothing else on its own', async () => {
    for (const response of [
      await fetch(`${server.url}/metrics`),
      await fetch(`${metricsUrl}/`),
      await fetch(`${metricsUrl}/healthz`),
      await fetch(`${metricsUrl}/metrics`, { method: 'POST' }),
    ]) {
      const { status, code } = await refusal(response);
      expect(status).toBe(404);
      expect(code).toBe('NOT_FOUND');
    }
  });

  it('counts what the main port serves', async () => {
    const text = Buffer.from(`export const v = '${randomBytes(8).toString('hex')}';\n`.repeat(100));
    const key = updateAssetKey('default', 'development', '2.0.0(1)', hashOfBytes(text));
    await server.app.objectStore.put(key, text, { contentType: 'application/javascript' });
    const before = await scrape(`${metricsUrl}/metrics`);
    await rawGet(`${server.url}/objects/${key.split('/').map(encodeURIComponent).join('/')}`);
    const after = await scrape(`${metricsUrl}/metrics`);
    const all = (exposition: Exposition) => sampleSum(exposition, 'ferry_asset_bytes_served_total');
    expect(all(after) - all(before)).toBe(text.length);
  });
});

describe('/metrics on its own listener with METRICS_TOKEN as well', () => {
  it('requires the token there too, and closes with the app', async () => {
    const server = await startTestServer('sqlite', { env: { METRICS_PORT: '0', METRICS_TOKEN, FERRY_AREAS: 'ota' } });
    const port = server.app.metricsListener?.address()?.port;
    const url = `http://127.0.0.1:${port}/metrics`;
    try {
      const { status, code } = await refusal(await fetch(url));
      expect([status, code]).toEqual([401, 'UNAUTHORIZED']);
      expect((await scrape(url, METRICS_TOKEN)).families.has('ferry_asset_bytes_served_total')).toBe(true);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
    }
    await expect(fetch(url)).rejects.toThrow();
  });

  it('stops start-up when its port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    const database = await createTestDatabase('sqlite');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-data-'));
    const config = {
      ...loadConfig({
        OTA_RELEASE_TOKEN: TEST_RELEASE_TOKEN,
        FERRY_AREAS: 'ota',
        DATA_DIR: dataDir,
        METRICS_PORT: String(port),
      }),
      database: database.target,
    };
    const app = await buildApp({ config, logger: pino({ level: 'silent' }, new LogCapture()) });
    try {
      await expect(app.listen({ port: 0, host: '127.0.0.1' })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await app.close();
      taken.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('/metrics when neither METRICS_TOKEN nor METRICS_PORT is set', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Both areas: the web funnel served at `/` must not answer /metrics either.
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('is not served: 404 with the common body, token or not', async () => {
    for (const response of [
      await fetch(`${server.url}/metrics`),
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
    ]) {
      const { status, code } = await refusal(response);
      expect(status).toBe(404);
      expect(code).toBe('NOT_FOUND');
    }
    expect(server.app.metricsListener).toBeNull();
    expect(server.logs.text).toContain('metrics: not served');
  });

  it('still counts, so every plugin can call app.metrics', async () => {
    server.app.metrics.published('publish');
    const { text } = await server.app.metrics.exposition();
    expect(text).toContain('ferry_releases_published_total{app="default",kind="publish"} 1');
  });
});
