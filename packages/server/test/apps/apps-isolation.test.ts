import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../src/auth/operator-token-store.js';
import { rolloutBucket } from '../../src/ota/rollout/rollout-bucket.js';
import { updateAssetKey } from '../../src/storage/objects/object-key.js';
import { describeEachEngine } from '../support/engines.js';
import { ClientRejection, checkManifestLikeExpo, clientHeaders, downloadAndVerify } from '../support/expo-client.js';
import { type AssetFile, fileOf, hashOfBytes, md5Of } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Many apps on one Ferry (issue 39), attacked from outside over HTTP: for every operation, the
 * credentials of one app get 403 or 404 on another and never see its data in a listing; a device
 * of one app only ever gets manifests signed with its app's key; a collection of one app never
 * deletes another's objects, even of the same content.
 */

const TRACK = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0' } as const;
/** The same bytes in both apps: content hashes collide on purpose. */
const LAUNCH = fileOf('console.log("same bundle in every app");\n'.repeat(40), 'application/javascript', '.bundle');
const IMAGE = fileOf(Buffer.from('png same image in every app '.repeat(40)), 'image/png', '.png');

const METRICS_TOKEN = `apps-metrics-token-${randomBytes(8).toString('hex')}`;

interface Credential {
  token: string;
  app?: string;
}

describeEachEngine('apps: isolation over HTTP', (engine) => {
  let server: TestServer;
  let admin: string;
  const apps: Record<string, { releaseToken: string; certificate: string; releaseId: string }> = {};
  let shopViewer: string;

  const call = (path: string, as: Credential, init: { method?: string; body?: unknown } = {}) =>
    fetch(server.url + path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        authorization: `Bearer ${as.token}`,
        ...(as.app ? { 'ferry-app': as.app } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  async function publish(as: Credential, files: AssetFile[], message: string): Promise<Response> {
    const check = await call('/api/updates/assets', as, {
      body: {
        channel: TRACK.channel,
        runtimeVersion: TRACK.runtimeVersion,
        assets: files.map((f) => ({ hash: hashOfBytes(f.body), contentType: f.contentType, size: f.body.length })),
      },
    });
    if (check.status !== 200) return check;
    const { assets } = (await check.json()) as {
      assets: Array<{
        hash: string;
        status: string;
        url: string;
        uploadUrl?: string;
        uploadHeaders?: Record<string, string>;
      }>;
    };
    for (const status of assets.filter((s) => s.status === 'missing')) {
      const file = files.find((f) => hashOfBytes(f.body) === status.hash)!;
      const put = await fetch(status.uploadUrl!, {
        method: 'PUT',
        headers: status.uploadHeaders,
        body: new Uint8Array(file.body),
      });
      expect(put.ok).toBe(true);
    }
    const urlOf = (f: AssetFile) => assets.find((s) => s.hash === hashOfBytes(f.body))!.url;
    const entry = (f: AssetFile) => ({
      url: urlOf(f),
      hash: hashOfBytes(f.body),
      key: md5Of(f.body),
      contentType: f.contentType,
      fileExtension: f.fileExtension,
    });
    return call('/api/updates/release', as, {
      body: {
        ...TRACK,
        launchAsset: entry(files[0]!),
        assets: files.slice(1).map(entry),
        metadata: { message },
        rollout: { percent: 50 },
      },
    });
  }

  /** A device inside the 50 % rollout of the app's release (its bucket is below 50). */
  const insideOf = (releaseId: string) => {
    for (let i = 0; ; i++) if (rolloutBucket(`device-${i}`, releaseId) < 50) return `device-${i}`;
  };
  const manifestOf = async (path: string, clientId?: string) => {
    const response = await fetch(server.url + path, {
      headers: { ...clientHeaders('expo', TRACK), ...(clientId ? { 'eas-client-id': clientId } : {}) },
    });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    server = await startTestServer(engine, {
      env: {
        APP_KEYS_SECRET: randomBytes(32).toString('base64'),
        ASSET_GC_GRACE_SECONDS: '0',
        METRICS_TOKEN,
      },
    });
    const store = new OperatorTokenStore(server.app.database.db);
    admin = (await store.create({ name: 'admin', role: 'admin' }, { actor: 'test' })).token;
    for (const slug of ['shop', 'games']) {
      const created = await call('/api/apps', { token: admin }, { body: { slug, name: slug.toUpperCase() } });
      if (created.status !== 201) throw new Error(await created.text());
      const body = (await created.json()) as {
        releaseToken: string;
        certificate: string;
        app: { manifestPath: string };
      };
      expect(body.app.manifestPath).toBe(`/api/apps/${slug}/manifest`);
      const published = await publish({ token: body.releaseToken }, [LAUNCH, IMAGE], `${slug} release`);
      if (published.status !== 201) throw new Error(await published.text());
      const { release } = (await published.json()) as { release: { id: string } };
      apps[slug] = { releaseToken: body.releaseToken, certificate: body.certificate, releaseId: release.id };
    }
    shopViewer = (await store.create({ name: 'shop-viewer', role: 'viewer', app: 'shop' }, { actor: 'test' })).token;
  });
  afterAll(async () => server?.close());

  it('each app signs with its own key: a device verifies its app’s manifest with its app’s certificate only', async () => {
    for (const [slug, other] of [
      ['shop', 'games'],
      ['games', 'shop'],
    ] as const) {
      const answer = await manifestOf(`/api/apps/${slug}/manifest`, insideOf(apps[slug]!.releaseId));
      const result = await checkManifestLikeExpo('expo', answer, {
        certificatePem: apps[slug]!.certificate,
        keyId: 'main',
      });
      expect(result.kind).toBe('update');
      if (result.kind !== 'update') return;
      expect(result.manifest.id).toBe(apps[slug]!.releaseId);
      // The same bytes under the other app's certificate: the signature does not verify.
      await expect(
        checkManifestLikeExpo('expo', answer, { certificatePem: apps[other]!.certificate, keyId: 'main' }),
      ).rejects.toThrow(ClientRejection);
      // Its assets are its own objects, under its own prefix, and download with the right bytes.
      for (const asset of [result.manifest.launchAsset, ...result.manifest.assets]) {
        expect(asset.url).toContain(`/objects/apps/${slug}/updates/`);
        await downloadAndVerify(asset);
      }
    }
  });

  it('the default app keeps its URL and key, and has none of the other apps’ releases', async () => {
    const answer = await manifestOf('/api/updates/manifest');
    expect(answer.status).toBe(204);
    expect((await manifestOf('/api/apps/default/manifest')).status).toBe(204);
    expect((await manifestOf('/api/apps/nosuch/manifest')).status).toBe(404);
    expect((await manifestOf('/api/apps/Not_A_Slug/manifest')).status).toBe(400);
  });

  it.each([
    [
      'publish (assets check)',
      'POST',
      '/api/updates/assets',
      { channel: 'production', runtimeVersion: '1.0.0', assets: [] },
    ],
    ['publish (release)', 'POST', '/api/updates/release', { ...TRACK, launchAsset: { url: 'http://x/y', hash: 'h' } }],
    ['releases', 'GET', '/api/updates/releases', undefined],
    ['audit log', 'GET', '/api/audit-events?order=newest', undefined],
    ['rollback', 'POST', '/api/updates/rollback', { ...TRACK }],
    ['roll back to embedded', 'POST', '/api/updates/directives', { ...TRACK, type: 'rollBackToEmbedded' }],
    ['garbage collection', 'POST', '/api/updates/gc', { keepPerTrack: 1 }],
    ['garbage collection check', 'POST', '/api/updates/gc/verify', { keepPerTrack: 1 }],
    ['embedded bundles', 'GET', '/api/updates/embedded', undefined],
    ['console tracks', 'GET', '/api/console/tracks', undefined],
  ])("app shop's release token on app games: %s is refused (403)", async (_what, method, path, body) => {
    const response = await call(path, { token: apps.shop!.releaseToken, app: 'games' }, { method, body });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('APP_FORBIDDEN');
  });

  it("the other app's release ids are not found from an app's own credentials", async () => {
    const shop = { token: apps.shop!.releaseToken };
    const games = apps.games!.releaseId;
    for (const [method, path, body] of [
      ['GET', `/api/updates/rollouts/${games}`, undefined],
      ['POST', `/api/updates/rollouts/${games}`, { action: 'complete' }],
      ['POST', '/api/updates/rollback', { ...TRACK, to: games }],
      ['POST', '/api/updates/promote', { releaseId: games, toChannel: 'development' }],
    ] as const) {
      const response = await call(path, shop, { method, body });
      expect([403, 404], `${method} ${path}`).toContain(response.status);
    }
    const viewer = { token: shopViewer };
    expect((await call(`/api/console/releases/${games}`, viewer)).status).toBe(404);
    // Nothing of games changed: its release is still the head of its rollout at 50 %.
    const rollout = await call(`/api/updates/rollouts/${games}`, { token: apps.games!.releaseToken });
    expect(((await rollout.json()) as { rollout: { percent: number; state: string } }).rollout).toMatchObject({
      percent: 50,
      state: 'running',
    });
  });

  it('listings show only the app in view', async () => {
    const listed = async (as: Credential, path: string) => JSON.stringify(await (await call(path, as)).json());
    for (const [slug, other] of [
      ['shop', 'games'],
      ['games', 'shop'],
    ] as const) {
      const as = { token: apps[slug]!.releaseToken };
      for (const path of ['/api/updates/releases', '/api/audit-events?order=newest', '/api/console/tracks']) {
        const text = await listed(as, path);
        expect(text, path).toContain(apps[slug]!.releaseId);
        expect(text, path).not.toContain(apps[other]!.releaseId);
      }
    }
    // An operator of one app: its tracks, and a refusal for the other app.
    const viewer = { token: shopViewer };
    expect(await listed(viewer, '/api/console/tracks')).toContain(apps.shop!.releaseId);
    expect((await call('/api/console/tracks', { ...viewer, app: 'games' })).status).toBe(403);
    // The release page checks an app's signatures against that app's certificate.
    const detail = (await (await call(`/api/console/releases/${apps.shop!.releaseId}`, viewer)).json()) as {
      manifests: Array<{ verifies: boolean }>;
    };
    expect(detail.manifests.length).toBeGreaterThan(0);
    expect(detail.manifests.every((manifest) => manifest.verifies)).toBe(true);
    const session = await fetch(`${server.url}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
      body: JSON.stringify({ token: shopViewer }),
    });
    const view = (await session.json()) as { app: string; apps: Array<{ slug: string }> };
    expect(view.app).toBe('shop');
    expect(view.apps.map((app) => app.slug)).toEqual(['shop']);
    // The public baseline of an app is its own release's.
    const baseline = await fetch(
      `${server.url}/api/updates/baseline-fingerprint?channel=production&platform=ios&runtimeVersion=1.0.0`,
      { headers: { 'ferry-app': 'games' } },
    );
    expect(((await baseline.json()) as { releaseId: string }).releaseId).toBe(apps.games!.releaseId);
  });

  it("a collection of one app never deletes another app's objects, even of the same content", async () => {
    // Each app publishes a newer release of a new bundle only, completed: its first bundle and image
    // (the same bytes in both apps) are now unreferenced in both.
    for (const slug of ['shop', 'games']) {
      const as = { token: apps[slug]!.releaseToken };
      const newer = await publish(
        as,
        [fileOf(`console.log("${slug} 2");\n`.repeat(40), 'application/javascript', '.bundle')],
        '2',
      );
      expect(newer.status).toBe(201);
      const { release } = (await newer.json()) as { release: { id: string } };
      expect((await call(`/api/updates/rollouts/${release.id}`, as, { body: { action: 'complete' } })).status).toBe(
        200,
      );
    }
    const oldObjects = (slug: string) =>
      [LAUNCH, IMAGE].map((file) => updateAssetKey(slug, TRACK.channel, TRACK.runtimeVersion, hashOfBytes(file.body)));
    const stored = async (key: string) => (await server.app.objectStore.head(key)) !== undefined;
    for (const url of [...oldObjects('shop'), ...oldObjects('games')]) expect(await stored(url)).toBe(true);

    const gc = async (slug: string) => {
      const answer = await call(
        '/api/updates/gc',
        { token: apps[slug]!.releaseToken },
        { body: { keepPerTrack: 1, dryRun: false } },
      );
      expect(answer.status).toBe(200);
      return (await answer.json()) as { collected: { assets: number }; releases: number };
    };
    const shop = await gc('shop');
    expect(shop.releases).toBe(2); // its own two releases: another app's are not its figures
    expect(shop.collected.assets).toBe(2);
    for (const url of oldObjects('shop')) expect(await stored(url)).toBe(false);
    // Games' unreferenced copies of the same content are games' collection's to decide, not shop's.
    for (const url of oldObjects('games')) expect(await stored(url)).toBe(true);
    expect((await gc('games')).collected.assets).toBe(2);
    for (const url of oldObjects('games')) expect(await stored(url)).toBe(false);
    // And games still serves every object of its release.
    const verify = await call(
      '/api/updates/gc/verify',
      { token: apps.games!.releaseToken },
      { body: { keepPerTrack: 1 } },
    );
    expect(((await verify.json()) as { problems: unknown[] }).problems).toEqual([]);
  });

  it('metrics: no app credential reads them, and each app counts under its own label', async () => {
    for (const token of [apps.shop!.releaseToken, shopViewer]) {
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        401,
      );
    }
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    for (const slug of ['shop', 'games']) {
      expect(text).toMatch(
        new RegExp(
          `ferry_manifest_requests_total\\{app="${slug}",outcome="update",platform="ios",channel="production"\\} [1-9]`,
        ),
      );
      expect(text).toMatch(new RegExp(`ferry_releases_published_total\\{app="${slug}",kind="publish"\\} [1-9]`));
    }
  });

  it('an admin of every app lists, archives and re-keys apps; an app token or operator of one app cannot', async () => {
    expect((await call('/api/apps', { token: apps.shop!.releaseToken })).status).toBe(403);
    expect((await call('/api/apps', { token: shopViewer })).status).toBe(403);
    const listed = (await (await call('/api/apps', { token: admin })).json()) as { apps: Array<{ slug: string }> };
    expect(listed.apps.map((app) => app.slug)).toEqual(['default', 'shop', 'games']);
    expect((await call('/api/apps', { token: admin }, { body: { slug: 'shop' } })).status).toBe(409);

    // Re-keyed over the API: the app's devices verify with the new certificate at once, never the old.
    const rotated = await call('/api/apps/shop/signing-key', { token: admin }, { body: {} });
    expect(rotated.status).toBe(200);
    const { certificate } = (await rotated.json()) as { certificate: string };
    expect(certificate).not.toBe(apps.shop!.certificate);
    const { releases } = (await (await call('/api/updates/releases', { token: apps.shop!.releaseToken })).json()) as {
      releases: Array<{ id: string }>;
    };
    const answer = await manifestOf('/api/apps/shop/manifest', insideOf(releases[0]!.id));
    expect((await checkManifestLikeExpo('expo', answer, { certificatePem: certificate, keyId: 'main' })).kind).toBe(
      'update',
    );
    await expect(
      checkManifestLikeExpo('expo', answer, { certificatePem: apps.shop!.certificate, keyId: 'main' }),
    ).rejects.toThrow(ClientRejection);
    expect((await call('/api/apps/default/signing-key', { token: admin }, { body: {} })).status).toBe(400);

    // Archived: its devices are still served; nothing more is changed (403 APP_ARCHIVED).
    expect((await call('/api/apps/shop/archive', { token: admin }, { body: {} })).status).toBe(200);
    const refused = await call('/api/updates/directives', { token: apps.shop!.releaseToken }, { body: {} });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('APP_ARCHIVED');
    expect((await manifestOf('/api/apps/shop/manifest', insideOf(releases[0]!.id))).status).toBe(200);
  });
});
