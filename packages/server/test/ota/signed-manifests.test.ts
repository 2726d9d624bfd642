import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { KyselyReleaseStore } from '../../src/ota/kysely-release-store.js';
import { generateSigningKey } from '../../src/signing/development-signing-key.js';
import { NodeManifestSigner } from '../../src/signing/manifest-signer.js';
import { describeEachEngine } from '../support/engines.js';
import { fetchManifestLikeExpo } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestS3 } from '../support/s3.js';
import { manifestSignings } from '../support/signing-spy.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * A release is signed when it is published and its signed manifests are stored with it; an
 * instance signs only what it finds signed under another key (a rotation) or not at all (a release
 * from before signing at publish), once, and stores that too.
 */
const track = { platform: 'android', runtimeVersion: 'signed-1', channel: 'production' } as const;
const launch = () =>
  fileOf(`console.log(${JSON.stringify(randomBytes(8).toString('hex'))});`, 'application/javascript', '.bundle');

describeEachEngine('signed manifests', (engine) => {
  let first: TestServer;
  beforeAll(async () => {
    first = await startTestServer(engine);
  });
  afterAll(async () => {
    await first?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it('are stored with the release at publish, one per namespace, and survive a restart unchanged', async () => {
    const { id } = await publishRelease(first, { ...track, launch: launch() });
    const rows = await first.app.database.db
      .selectFrom('signed_manifests')
      .selectAll()
      .where('release_id', '=', id)
      .orderBy('namespace')
      .execute();
    expect(rows.map((row) => row.namespace)).toEqual(['expo', 'ota']);
    expect(JSON.parse(rows[0]!.body).id).toBe(id);

    const signatures = vi.spyOn(NodeManifestSigner.prototype, 'signatureHeader');
    // Restarted as a deployment restarts: the same PUBLIC_URL, so what it stored is current.
    const restarted = await startTestServer(engine, { database: first.database, env: { PUBLIC_URL: first.url } });
    // It loaded the recently published tracks before it listened: no request waits for a read.
    const loads = vi.spyOn(KyselyReleaseStore.prototype, 'timeline');
    try {
      const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
      for (const ns of ['expo', 'ota'] as const) {
        const result = await fetchManifestLikeExpo(restarted.url, ns, track, trust);
        expect(result.kind === 'update' && result.manifest.id).toBe(id);
        if (result.kind === 'update') {
          const signature = result.partHeaders.get(`${ns}-signature`);
          expect(signature).toBe(rows.find((row) => row.namespace === ns)!.signature);
        }
      }
      expect(manifestSignings(signatures)).toBe(0);
      expect(loads).not.toHaveBeenCalled();
      expect(restarted.logs.entries().find((entry) => entry.msg === 'manifest cache loaded')).toMatchObject({
        tracks: expect.any(Number),
      });
    } finally {
      await restarted.close();
    }
  });

  it('after a key rotation, the newest release is signed once under the new key, by one instance for all', async () => {
    const { id } = await publishRelease(first, { ...track, runtimeVersion: 'signed-2', launch: launch() });
    const rotated = generateSigningKey('Ferry rotated');
    // Two instances of one deployment: one PUBLIC_URL (a load balancer's), so they sign the same bytes.
    const env = {
      OTA_SIGNING_KEY: rotated.privateKeyPem,
      OTA_SIGNING_CERT: rotated.certificatePem,
      PUBLIC_URL: first.url,
    };
    const signatures = vi.spyOn(NodeManifestSigner.prototype, 'signatureHeader');
    const a = await startTestServer(engine, { database: first.database, env });
    const b = await startTestServer(engine, { database: first.database, env });
    try {
      const trust = { certificatePem: rotated.certificatePem, keyId: 'main' };
      const twoTrack = { ...track, runtimeVersion: 'signed-2' };
      const onA = await Promise.all(
        Array.from({ length: 20 }, (_, i) => fetchManifestLikeExpo(a.url, i % 2 ? 'ota' : 'expo', twoTrack, trust)),
      );
      expect(onA.every((result) => result.kind === 'update' && result.manifest.id === id)).toBe(true);
      expect(manifestSignings(signatures)).toBe(2);
      // B finds what A stored under the same key.
      const onB = await fetchManifestLikeExpo(b.url, 'expo', twoTrack, trust);
      expect(onB.kind === 'update' && onB.manifest.id).toBe(id);
      expect(manifestSignings(signatures)).toBe(2);
      expect(a.logs.text).toContain('signed a stored release under the current key and asset base URL');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a release stored before signing at publish is signed on first demand, once, and kept', async () => {
    const { id } = await publishRelease(first, { ...track, runtimeVersion: 'signed-3', launch: launch() });
    await first.app.database.db.deleteFrom('signed_manifests').where('release_id', '=', id).execute();
    const signatures = vi.spyOn(NodeManifestSigner.prototype, 'signatureHeader');
    const later = await startTestServer(engine, { database: first.database });
    try {
      const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
      const result = await fetchManifestLikeExpo(later.url, 'ota', { ...track, runtimeVersion: 'signed-3' }, trust);
      expect(result.kind === 'update' && result.manifest.id).toBe(id);
      expect(manifestSignings(signatures)).toBe(2);
      const rows = await first.app.database.db
        .selectFrom('signed_manifests')
        .select('namespace')
        .where('release_id', '=', id)
        .execute();
      expect(rows).toHaveLength(2);
    } finally {
      await later.close();
    }
  });

  it('a rollback is signed at once as well', async () => {
    const runtimeVersion = 'signed-4';
    await publishRelease(first, { ...track, runtimeVersion, launch: launch() });
    await publishRelease(first, { ...track, runtimeVersion, launch: launch() });
    const signatures = vi.spyOn(NodeManifestSigner.prototype, 'signatureHeader');
    const response = await first.authed('/api/updates/rollback', {
      method: 'POST',
      body: JSON.stringify({ channel: track.channel, platform: track.platform, runtimeVersion }),
    });
    expect(response.status).toBe(201);
    const { release } = (await response.json()) as { release: { id: string } };
    expect(manifestSignings(signatures)).toBe(2);
    const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
    const result = await fetchManifestLikeExpo(first.url, 'expo', { ...track, runtimeVersion }, trust);
    expect(result.kind === 'update' && result.manifest.id).toBe(release.id);
    expect(manifestSignings(signatures)).toBe(2);
  });
});

it('an asset uploaded straight to S3 is compressed by the publish that names it, before any device asks', async () => {
  const s3 = await startTestS3();
  const server = await startTestServer('sqlite', { env: s3.env });
  try {
    const text = Buffer.from(`export default function App(){return ${randomBytes(8).toString('hex')}}\n`.repeat(2000));
    const { urls } = await publishRelease(server, {
      ...track,
      launch: fileOf(text, 'application/javascript', '.bundle'),
    });
    const url = [...urls.values()][0]!;
    const response = await fetch(url, { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    // fetch decodes the body; the header says what travelled.
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(Buffer.from(await response.arrayBuffer()).equals(text)).toBe(true);
  } finally {
    await server.close();
    await s3.close();
  }
});
