import { randomBytes, randomUUID } from 'node:crypto';
import { ConsoleReleaseDetail } from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../../../src/auth/operator-token-store.js';
import { describeEachEngine } from '../../../support/engines.js';
import { fetchManifestLikeExpo } from '../../../support/expo-client.js';
import {
  type AssetFile,
  fileOf,
  hashOfBytes,
  md5Of,
  publishRelease,
  uploadAssets,
} from '../../../support/publisher.js';
import { rowCounts } from '../../../support/row-counts.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../../../support/test-server.js';

/**
 * Issue 34, item 9: a release expo-updates would refuse (client-asset-rules.ts in the contracts) is
 * refused with 400 over HTTP, names the field and the reason, and leaves nothing behind: the track
 * keeps serving its previous release, which stays the guard's baseline.
 */
let tracks = 0;
const freshTrack = () =>
  ({ channel: 'production', platform: 'android', runtimeVersion: `client-rules-${Date.now()}-${tracks++}` }) as const;
const launch = () => fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');
const image = () => fileOf(randomBytes(600), 'image/png', '.png');

describeEachEngine('POST /api/updates/release refuses what the client would refuse', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const counts = () => rowCounts(server.app.database.db, ['releases', 'audit_events', 'signed_manifests', 'rollouts']);

  /** The release body `ferry publish` would send for these files (uploaded first), before any override. */
  const bodyFor = async (track: ReturnType<typeof freshTrack>, files: { launch: AssetFile; assets: AssetFile[] }) => {
    const statuses = await uploadAssets(server, { channel: track.channel, runtimeVersion: track.runtimeVersion }, [
      files.launch,
      ...files.assets,
    ]);
    const urls = new Map(statuses.map((s) => [s.hash, s.url]));
    const entry = (file: AssetFile) => ({
      url: urls.get(hashOfBytes(file.body))!,
      hash: hashOfBytes(file.body),
      key: md5Of(file.body),
      contentType: file.contentType,
      fileExtension: file.fileExtension,
    });
    return {
      ...track,
      launchAsset: entry(files.launch),
      assets: files.assets.map(entry),
      fingerprint: 'fp-2',
      metadata: { actor: 'ci' },
    };
  };
  const post = (body: unknown) => server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(body) });

  type Body = Awaited<ReturnType<typeof bodyFor>>;
  /** [name, how the body is spoiled, the field path the answer names, what its message says]. */
  const ROWS: Array<[string, (body: Body) => void, string, RegExp]> = [
    ['a key with a slash', (b) => (b.assets[3]!.key = 'assets/logo'), 'body.assets.3.key', /file name on the device/],
    ['a key with a backslash', (b) => (b.assets[0]!.key = 'a\\b'), 'body.assets.0.key', /file name on the device/],
    ['the key ".."', (b) => (b.assets[1]!.key = '..'), 'body.assets.1.key', /"\." or "\.\."/],
    ['the key "."', (b) => (b.launchAsset.key = '.'), 'body.launchAsset.key', /"\." or "\.\."/],
    ['a key too long for a file name', (b) => (b.assets[2]!.key = 'k'.repeat(223)), 'body.assets.2.key', /222 bytes/],
    [
      'two keys for different files',
      (b) => (b.assets[2]!.key = b.assets[0]!.key),
      'body.assets.2.key',
      /one file per key/,
    ],
    [
      'a fileExtension with a slash',
      (b) => (b.assets[0]!.fileExtension = '.p/g'),
      'body.assets.0.fileExtension',
      /dot/,
    ],
    ['a URL with a space', (b) => (b.assets[1]!.url += '%20x y'), 'body.assets.1.url', /URI characters/],
    ['a URL with a stray %', (b) => (b.launchAsset.url += '%zz'), 'body.launchAsset.url', /URI characters/],
    [
      'a hash no SHA-256 has',
      (b) => (b.assets[0]!.hash = `${b.assets[0]!.hash.slice(0, 42)}B`),
      'body.assets.0.hash',
      /last character/,
    ],
    ['an empty contentType', (b) => (b.assets[0]!.contentType = ''), 'body.assets.0.contentType', /.+/],
  ];

  it.each(ROWS)(
    '%s → 400 naming the field; nothing stored, the previous release still served and still the baseline',
    async (_name, spoil, path, message) => {
      const track = freshTrack();
      const earlier = await publishRelease(server, { ...track, launch: launch(), payload: { fingerprint: 'fp-1' } });
      const body = await bodyFor(track, { launch: launch(), assets: [image(), image(), image(), image()] });
      spoil(body);
      const before = await counts();

      const response = await post(body);
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe('VALIDATION_FAILED');
      const field = error.details.fields.find((f: { path: string }) => f.path === path);
      expect(field, JSON.stringify(error.details.fields)).toBeDefined();
      expect(field.message).toMatch(message);

      expect(await counts()).toEqual(before);
      const served = await fetchManifestLikeExpo(server.url, 'expo', track, {
        certificatePem: TEST_SIGNING.certificatePem,
        keyId: 'main',
      });
      expect(served.kind === 'update' && served.manifest.id).toBe(earlier.id);
      const baseline = await fetch(`${server.url}/api/updates/baseline-fingerprint?${new URLSearchParams(track)}`);
      expect(await baseline.json()).toMatchObject({ releaseId: earlier.id, fingerprint: 'fp-1' });
    },
  );

  it('the same body with Metro keys (md5 hex) and a file listed twice is accepted', async () => {
    const track = freshTrack();
    const shared = image();
    const body = await bodyFor(track, { launch: launch(), assets: [shared, image(), shared] });
    const response = await post(body);
    expect(response.status).toBe(201);
  });

  it('a release stored before these rules still reads back (console detail)', async () => {
    const track = freshTrack();
    const { id } = await publishRelease(server, { ...track, launch: launch(), assets: [image()] });
    // What an earlier version let through, written straight into the record.
    const stored = await server.releaseStore.findById(id);
    const assets = JSON.stringify([{ ...stored!.assets[0], key: 'assets/logo', contentType: '' }]);
    await server.app.database.db.updateTable('releases').set({ assets }).where('id', '=', id).execute();
    const { token } = await new OperatorTokenStore(server.app.database.db).create(
      { name: `viewer-${randomUUID().slice(0, 8)}`, role: 'viewer' },
      { actor: 'test' },
    );
    const detail = await fetch(`${server.url}/api/console/releases/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(detail.status).toBe(200);
    const parsed = ConsoleReleaseDetail.parse(await detail.json());
    expect(parsed.assets.find((asset) => !asset.launch)?.key).toBe('assets/logo');
  });
});
