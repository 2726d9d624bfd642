import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ASSET_COLLECTING_RETRY_SECONDS, FerryHttpError, type Platform } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSigningKey } from '../../../server/src/signing/development-signing-key.js';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { CapturedOutput, RecordingFetch } from '../../test/support/recording-fetch.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import type { AppCodeSigning } from '../code-signing/app-code-signing.js';
import { main } from '../main.js';
import { ASSET_MISSING_ATTEMPTS, type PublishDependencies, withAssetsAgain } from '../publish/publisher.js';
import { publishCommand } from './publish.js';
import { releasesCommand } from './releases.js';
import { rollbackCommand } from './rollback.js';

let trackCounter = 0;

/** The app config an `expo export` project would evaluate to; both platforms on their own track. */
const appConfig = (runtimeVersions: Record<Platform, string>, channel = 'production') => ({
  name: 'Example',
  slug: 'example',
  scheme: 'example',
  version: '1.0.0',
  ios: { runtimeVersion: runtimeVersions.ios, bundleIdentifier: 'com.example' },
  android: { runtimeVersion: runtimeVersions.android, package: 'com.example' },
  updates: { requestHeaders: { 'expo-channel-name': channel } },
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('base64url');

describeEachEngine('ferry publish against a real server', (engine) => {
  let server: TestServer;
  let recorder: RecordingFetch;
  let out: CapturedOutput;
  let stderr: string;
  let fingerprints: Record<Platform, string>;
  let config: Record<string, unknown>;
  let env: Record<string, string | undefined>;
  let exporterCalls: number;
  let codeSigning: AppCodeSigning | undefined;
  const exports: SyntheticExport[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    for (const e of exports) e.remove();
    await server?.close();
  });

  beforeEach(() => {
    recorder = new RecordingFetch();
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    const n = ++trackCounter;
    config = appConfig({ ios: `5.${n}.0(1)`, android: `5.${n}.0(2)` });
    fingerprints = { ios: 'fp-ios-1', android: 'fp-android-1' };
    exporterCalls = 0;
    codeSigning = undefined;
    env = {
      CI: 'true',
      OTA_SERVER_URL: server.url,
      OTA_RELEASE_TOKEN: server.token,
      GITHUB_SHA: 'a1b2c3d4e5f6',
      GITHUB_REF_NAME: 'main',
      GITHUB_ACTOR: 'octocat',
      GITHUB_RUN_ID: '4242',
    };
  });
  afterEach(() => vi.restoreAllMocks());

  const deps = (): PublishDependencies => ({
    env,
    out,
    exporter: async () => {
      exporterCalls++;
      throw new Error('the export must not run when --dist is given');
    },
    codeSigning: async () => codeSigning,
    evaluateAppConfig: async () => config,
    fingerprint: async (_root, platform) => ({ hash: fingerprints[platform] }),
    git: { commit: async () => 'git-commit', branch: async () => 'git-branch' },
    fetch: recorder.fetch,
    retry: { attempts: 3, baseDelayMs: 1, sleep: async () => {} },
  });

  /** Runs `ferry …` through the real entry point and returns its exit code. */
  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    publishCommand(() => deps())(program);
    releasesCommand(() => ({ env, out, fetch: recorder.fetch }))(program);
    rollbackCommand(() => ({ env, out, fetch: recorder.fetch }))(program);
    return main(['node', 'ferry', ...args], program);
  };

  const exportOf = (files?: Parameters<typeof writeSyntheticExport>[0]) => {
    const shared = asset('png');
    const made = writeSyntheticExport(
      files ?? {
        ios: { bundle: bundle('ios'), assets: [shared, asset('ttf'), shared] },
        android: { bundle: bundle('android'), assets: [shared, asset('jpg')] },
      },
    );
    exports.push(made);
    return made;
  };

  const releaseIds = () => [...out.text.matchAll(/published release ([0-9a-f-]{36})/g)].map((m) => m[1]!);
  const releaseCount = () => server.releaseStore.count();

  it('publishes both platforms: every asset with hash, key, contentType, fileExtension and url, plus config, fingerprint and CI metadata', async () => {
    const exported = exportOf();
    expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(0);
    expect(exporterCalls).toBe(0);

    const [iosId, androidId] = releaseIds();
    const ios = await server.releaseStore.findById(iosId!);
    const android = await server.releaseStore.findById(androidId!);
    expect(ios).toMatchObject({
      channel: 'production',
      platform: 'ios',
      runtimeVersion: (config.ios as { runtimeVersion: string }).runtimeVersion,
      otaConfig: config,
      updatePolicy: null,
      metadata: { fingerprint: 'fp-ios-1', commit: 'a1b2c3d4e5f6', branch: 'main', actor: 'octocat', runId: '4242' },
    });
    expect(android?.metadata.fingerprint).toBe('fp-android-1');
    expect(ios?.launchAsset).toMatchObject({ contentType: 'application/javascript', fileExtension: '.bundle' });
    expect(ios?.assets).toHaveLength(2); // the duplicate listing is one asset
    expect(ios?.assets.map((a) => a.fileExtension)).toEqual(['.png', '.ttf']);
    expect(ios?.assets.map((a) => a.contentType)).toEqual(['image/png', 'font/ttf']);
    expect(android?.assets.map((a) => a.contentType)).toEqual(['image/png', 'image/jpeg']);

    // As an app would: download every URL and compare with the manifest hash; keys are Metro's md5.
    for (const release of [ios!, android!]) {
      for (const entry of [release.launchAsset, ...release.assets]) {
        const response = await fetch(server.assetUrl(release, entry.hash));
        expect(response.status).toBe(200);
        const body = Buffer.from(await response.arrayBuffer());
        expect(sha256(body)).toBe(entry.hash);
        expect(entry.key).toBe(createHash('md5').update(body).digest('hex'));
      }
    }

    expect(out.text).toMatch(new RegExp(`ios: published release ${iosId} to production/ios/5\\.\\d+\\.0\\(1\\)`));
    expect(out.text).toMatch(/ios: uploaded 3 asset\(s\) \(\d+ B\), skipped 0 already stored \(0 B\)/);
    expect(out.text).toMatch(/android: uploaded 3 asset\(s\)/);
    expect(out.text).not.toContain(server.token);
  });

  it('re-publishing the same export uploads nothing', async () => {
    const exported = exportOf();
    expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(0);
    const firstBytes = recorder.putBytes();
    expect(firstBytes).toBeGreaterThan(0);

    recorder.reset();
    out.text = '';
    expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(0);
    expect(recorder.puts()).toHaveLength(0);
    expect(out.text).toMatch(/ios: uploaded 0 asset\(s\) \(0 B\), skipped 3 already stored/);
    expect(out.text).toMatch(/android: uploaded 0 asset\(s\) \(0 B\), skipped 3 already stored/);
    expect(releaseIds()).toHaveLength(2);
  });

  it('assets deleted after the asset check (a garbage collection) are uploaded again, and the release goes through', async () => {
    const exported = exportOf();
    expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(0);
    recorder.reset();
    out.text = '';
    // The re-publish finds everything stored; then, before its first release reaches the server,
    // every stored asset of the iOS track is deleted behind its back.
    const runtimeVersion = (config.ios as { runtimeVersion: string }).runtimeVersion;
    const trackDir = path.join(server.dataDir, 'objects', 'data', 'updates', 'production', runtimeVersion);
    recorder.failWith = ({ method, url, attempt }) => {
      if (method === 'POST' && url.endsWith('/api/updates/release') && attempt === 1) {
        fs.rmSync(trackDir, { recursive: true, force: true });
      }
      return undefined;
    };
    expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(0);
    const statuses = recorder.requests.filter((r) => r.url.endsWith('/api/updates/release')).map((r) => r.status);
    expect(statuses).toEqual([422, 201, 201]);
    expect(out.text).toMatch(
      /ios: 3 asset\(s\) were deleted .* before the release was registered; uploading them again/,
    );
    expect(out.text).toMatch(/ios: uploaded 3 asset\(s\) \(\d+ B\), skipped 0 already stored/);
    const [iosId] = releaseIds();
    const ios = await server.releaseStore.findById(iosId!);
    for (const entry of [ios!.launchAsset, ...ios!.assets]) {
      const response = await fetch(server.assetUrl(ios!, entry.hash));
      expect(response.status).toBe(200);
      expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(entry.hash);
    }
  });

  it('an asset shared by both platforms of one runtimeVersion is uploaded once', async () => {
    config = appConfig({ ios: `6.${trackCounter}.0-pre`, android: `6.${trackCounter}.0-pre` });
    const exported = exportOf();
    expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(0);
    const uploadedPaths = recorder.puts().map((r) => new URL(r.url).pathname);
    expect(new Set(uploadedPaths).size).toBe(uploadedPaths.length);
    // ios: bundle + png + ttf; android: bundle + jpg (the png is already there).
    expect(uploadedPaths).toHaveLength(5);
    expect(out.text).toMatch(/android: uploaded 2 asset\(s\) .*skipped 1 already stored/);
  });

  it.each([
    ['a 503', 503 as const],
    ['a network error', 'network' as const],
  ])('retries a PUT that fails once with %s', async (_name, failure) => {
    const exported = exportOf();
    let failed = 0;
    recorder.failWith = ({ method, attempt }) => {
      if (method === 'PUT' && attempt === 1 && failed === 0) {
        failed++;
        return failure;
      }
      return undefined;
    };
    expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(0);
    expect(failed).toBe(1);
    expect(recorder.puts()).toHaveLength(4); // 3 uploads + 1 retry
    expect(out.text).toMatch(/retrying .* after attempt 1 failed/);
    const [id] = releaseIds();
    const release = await server.releaseStore.findById(id!);
    for (const entry of [release!.launchAsset, ...release!.assets]) {
      expect((await fetch(server.assetUrl(release!, entry.hash))).status).toBe(200);
    }
  });

  it('a PUT that keeps failing stops the publish: exit 1 and no release', async () => {
    const exported = exportOf();
    recorder.failWith = ({ method }) => (method === 'PUT' ? 500 : undefined);
    const before = await releaseCount();
    expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(1);
    expect(stderr).toMatch(/Uploading .* failed: PUT answered 500.*nothing was published/);
    expect(await releaseCount()).toBe(before);
  });

  it.each([
    [
      'Ferry’s own store (local files)',
      { error: { code: 'STORAGE_FULL', message: 'The object storage is full.', details: {} } },
    ],
    ['an S3-compatible store (presigned PUT)', '<?xml version="1.0"?><Error><Code>XMinioStorageFull</Code></Error>'],
  ])(
    'a full object store (%s) stops the publish at once with what to do: exit 1, no retry, no release',
    async (_store, answer) => {
      const exported = exportOf();
      recorder.failWith = ({ method }) =>
        method === 'PUT'
          ? { status: 507, body: typeof answer === 'string' ? answer : JSON.stringify(answer) }
          : undefined;
      const before = await releaseCount();
      expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(/ios: the server's object storage is full \(STORAGE_FULL\).*nothing was published/);
      expect(stderr).toMatch(/free space or raise the storage quota/);
      // Full storage stays full until someone acts: each PUT is tried once, not retried.
      const puts = recorder.puts();
      expect(new Set(puts.map((put) => put.url)).size).toBe(puts.length);
      expect(await releaseCount()).toBe(before);
    },
  );

  it('a refusal by the guard exits 2 and prints the server remedy', async () => {
    const exported = exportOf();
    expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(0);
    fingerprints.ios = 'fp-ios-2';
    const before = await releaseCount();
    expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(2);
    expect(stderr).toContain('refused the release (native-change guard, NATIVE_FINGERPRINT_CHANGED)');
    expect(stderr).toMatch(/higher build number/);
    expect(stderr).toMatch(/baseline fingerprint: fp-ios-1\n\s+this export:\s+fp-ios-2/);
    expect(await releaseCount()).toBe(before);
  });

  describe('the certificate the app embeds', () => {
    const certificates = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-publish-certs-'));
    afterAll(() => fs.rmSync(certificates, { recursive: true, force: true }));
    const embedding = (pem: string | undefined, keyId = 'main'): AppCodeSigning => {
      const file = path.join(certificates, `${++trackCounter}.pem`);
      if (pem !== undefined) fs.writeFileSync(file, pem);
      return {
        certificate: './certs/certificate.pem',
        certificateFile: file,
        certificatePath: 'certs/certificate.pem',
        keyId,
        alg: 'rsa-v1_5-sha256',
      };
    };
    const publishIos = (dir: string) => ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', dir);

    it('the server’s own certificate: publishes, and says the builds verify its signatures', async () => {
      codeSigning = embedding(server.certificatePem);
      expect(await publishIos(exportOf().dir)).toBe(0);
      expect(stderr).toContain("code signing: certs/certificate.pem verifies the server's signatures (key id main)");
    });

    it.each<[string, () => AppCodeSigning, RegExp]>([
      [
        'another key’s certificate',
        () => embedding(generateSigningKey('another team').certificatePem),
        /certs\/certificate\.pem does not verify this server's signatures: the server signs with the certificate SHA-256 [0-9A-F:]+ and key id "main", the app embeds [0-9A-F:]+/,
      ],
      [
        'a certificate that is not in the checkout (Expo’s .gitignore has *.pem)',
        () => embedding(undefined),
        /certs\/certificate\.pem does not exist\. .*add `!certs\/certificate\.pem` to \.gitignore/,
      ],
      [
        'another key id',
        () => embedding(server.certificatePem, 'root'),
        /server signs with key id "main", but the app config's codeSigningMetadata\.keyid is "root"/,
      ],
    ])('%s: refuses before anything is exported or uploaded, naming the file', async (_name, embed, message) => {
      codeSigning = embed();
      const before = await releaseCount();
      expect(await publishIos(exportOf().dir)).toBe(1);
      expect(stderr).toMatch(/Refusing to publish updates the app's builds would reject\./);
      expect(stderr).toMatch(message);
      // At most the proof was asked for: nothing exported, uploaded or registered.
      expect(exporterCalls).toBe(0);
      expect(recorder.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(
        codeSigning.certificateFile && fs.existsSync(codeSigning.certificateFile)
          ? ['GET /api/updates/code-signing']
          : [],
      );
      expect(await releaseCount()).toBe(before);
    });
  });

  it('the development channel is not guarded', async () => {
    config = appConfig({ ios: `7.${trackCounter}.0(1)`, android: `7.${trackCounter}.0(1)` }, 'development');
    const exported = exportOf();
    expect(await ferry('publish', '--channel', 'development', '--platform', 'ios', '--dist', exported.dir)).toBe(0);
    fingerprints.ios = 'changed';
    expect(await ferry('publish', '--channel', 'development', '--platform', 'ios', '--dist', exported.dir)).toBe(0);
  });

  describe('environment', () => {
    // [OTA_UPDATE_POLICY, OTA_ALLOW_NATIVE_CHANGE, expected exit, stored updatePolicy, guard bypassed?]
    type Row = [string | undefined, string | undefined, number, number | null, boolean];
    const rows: Row[] = [
      [undefined, undefined, 0, null, false],
      ['', undefined, 0, null, false],
      ['1', undefined, 0, 1, false],
      ['2', undefined, 0, 2, false],
      ['3', undefined, 0, 3, false],
      ['0', undefined, 1, null, false],
      ['4', undefined, 1, null, false],
      ['-1', undefined, 1, null, false],
      ['2.0', undefined, 1, null, false],
      [' 2', undefined, 1, null, false],
      ['02', undefined, 1, null, false],
      ['notify', undefined, 1, null, false],
      [undefined, '1', 0, null, true],
      [undefined, '0', 0, null, false],
      [undefined, '', 0, null, false],
      [undefined, 'true', 1, null, false],
      [undefined, 'yes', 1, null, false],
      ['2', '1', 0, 2, true],
    ];

    it.each(rows)(
      'OTA_UPDATE_POLICY=%j OTA_ALLOW_NATIVE_CHANGE=%j → exit %i, updatePolicy %j, bypass %j',
      async (policy, allow, exit, storedPolicy, bypassed) => {
        const exported = exportOf();
        // A baseline with another fingerprint, so only allowNativeChange lets the release through.
        fingerprints.ios = 'fp-baseline';
        expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(0);
        fingerprints.ios = allow === '1' ? 'fp-new' : 'fp-baseline';
        recorder.reset();
        out.text = '';
        env.OTA_UPDATE_POLICY = policy;
        env.OTA_ALLOW_NATIVE_CHANGE = allow;

        expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(
          exit,
        );
        if (exit !== 0) {
          expect(stderr).toMatch(
            policy !== undefined && policy !== '' ? /OTA_UPDATE_POLICY must be/ : /OTA_ALLOW_NATIVE_CHANGE must be/,
          );
          expect(recorder.requests).toHaveLength(0); // refused before any upload or request
          return;
        }
        const [id] = releaseIds();
        const release = await server.releaseStore.findById(id!);
        expect(release?.updatePolicy).toBe(storedPolicy);
        const events = await server.app.database.db
          .selectFrom('audit_events')
          .select('type')
          .where('release_id', '=', id!)
          .execute();
        expect(events.some((e) => e.type === 'guard.bypassed')).toBe(bypassed);
      },
    );

    it.each([[undefined], [''], ['false'], ['0']])('CI=%j: refuses, explaining the native folders', async (ci) => {
      env.CI = ci;
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(/runs only in CI/);
      expect(stderr).toMatch(/native folders \(ios\/, android\/\)/);
      expect(recorder.requests).toHaveLength(0);
    });

    it('without GitHub variables, commit and branch come from git', async () => {
      for (const name of ['GITHUB_SHA', 'GITHUB_REF_NAME', 'GITHUB_ACTOR', 'GITHUB_RUN_ID']) delete env[name];
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--platform', 'android', '--dist', exported.dir)).toBe(
        0,
      );
      const release = await server.releaseStore.findById(releaseIds()[0]!);
      expect(release?.metadata).toEqual({ commit: 'git-commit', branch: 'git-branch', fingerprint: 'fp-android-1' });
    });

    it('a wrong release token is an error (exit 1) that never echoes the token', async () => {
      env.OTA_RELEASE_TOKEN = 'wrong-token-0123456789-secret';
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(/bearer token is not valid/);
      expect(stderr + out.text).not.toContain('wrong-token-0123456789-secret');
    });
  });

  describe('checks before any upload', () => {
    it('an app config without runtimeVersion fails clearly', async () => {
      config = { name: 'x', slug: 'x', ios: {} };
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(/gives ios no runtimeVersion.*runtimeVersionFor/);
      expect(recorder.requests).toHaveLength(0);
    });

    it('an app config that subscribes to another channel fails clearly', async () => {
      config = appConfig({ ios: '1(1)', android: '1(1)' }, 'development');
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(/subscribes builds to the development channel.*APP_ENV/);
      expect(recorder.requests).toHaveLength(0);
    });

    it('a file named by metadata.json that is missing fails before any request', async () => {
      const exported = exportOf();
      const [missingPath] = [...exported.files.keys()].filter((p) => p.startsWith('assets/'));
      const { rmSync } = await import('node:fs');
      rmSync(`${exported.dir}/${missingPath}`);
      expect(await ferry('publish', '--channel', 'production', '--dist', exported.dir)).toBe(1);
      expect(stderr).toContain(`named by metadata.json are missing`);
      expect(stderr).toContain(missingPath);
      expect(recorder.requests).toHaveLength(0);
    });

    it('a release the server would refuse fails before any request, naming the field', async () => {
      config = { ...config, description: 'one\u0000two' };
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(
        /ios: the server would refuse this release, so nothing was uploaded:\n\s+otaConfig\.description: /,
      );
      expect(recorder.requests).toHaveLength(0);
    });

    it('an extension that cannot be a fileExtension fails before any request (the contracts’ rule)', async () => {
      const exported = exportOf({
        ios: { bundle: bundle('ios'), assets: [asset('p/ng')] },
        android: { bundle: bundle('android'), assets: [] },
      });
      expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', exported.dir)).toBe(1);
      expect(stderr).toMatch(/unusable extension "p\/ng": a file extension is 1-32 letters or digits/);
      expect(recorder.requests).toHaveLength(0);
    });

    it('without --dist, the exporter runs for the requested platforms', async () => {
      const exported = exportOf();
      const base = deps();
      const program = new Command('ferry').exitOverride();
      let asked: Platform[] = [];
      publishCommand(() => ({
        ...base,
        exporter: async (_root, platforms) => {
          asked = platforms;
          return exported.dir;
        },
      }))(program);
      expect(
        await main(['node', 'ferry', 'publish', '--channel', 'production', '--platform', 'android'], program),
      ).toBe(0);
      expect(asked).toEqual(['android']);
      expect(out.text).toMatch(/android: published release/);
      expect(out.text).not.toMatch(/ios: published/);
    });
  });

  describe('rollback and releases', () => {
    it('rollback keeps the fingerprint, and the next publish is still guarded', async () => {
      const first = exportOf({ ios: { bundle: bundle('ios'), assets: [asset('png')] } });
      const second = exportOf({ ios: { bundle: bundle('ios'), assets: [asset('png')] } });
      const runtimeVersion = (config.ios as { runtimeVersion: string }).runtimeVersion;
      expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', first.dir)).toBe(0);
      expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', second.dir)).toBe(0);
      const [firstId, secondId] = releaseIds();
      out.text = '';

      const track = ['--channel', 'production', '--platform', 'ios', '--runtime-version', runtimeVersion];
      expect(await ferry('rollback', ...track)).toBe(0);
      expect(out.text).toContain(`Rolled back production/ios/${runtimeVersion}.`);
      expect(out.text).toMatch(new RegExp(`a copy of:\\s+${firstId} .*fingerprint fp-ios-1`));
      expect(out.text).toMatch(new RegExp(`replacing:\\s+${secondId}`));
      const newest = await server.releaseStore.newest({
        channel: 'production',
        platform: 'ios',
        runtimeVersion,
      });
      expect(newest?.metadata).toMatchObject({ fingerprint: 'fp-ios-1', rolledBackFrom: firstId });
      const firstRelease = await server.releaseStore.findById(firstId!);
      expect(newest?.launchAsset).toEqual(firstRelease?.launchAsset);

      out.text = '';
      expect(await ferry('releases', ...track)).toBe(0);
      const lines = out.text.trim().split('\n');
      expect(lines[1]).toMatch(
        /^\s+RELEASE\s+GROUP\s+CREATED\s+POLICY\s+ROLLOUT\s+DEVICES 24H\/7D\s+PATCHES\s+FINGERPRINT\s+COMMIT\s+BRANCH\s+ACTOR\s+MESSAGE\s+NOTE$/,
      );
      expect(lines[2]).toMatch(new RegExp(`^\\*\\s+${newest?.id}.*rollback of ${firstId}$`));
      expect(lines).toHaveLength(5);

      fingerprints.ios = 'fp-ios-native-change';
      expect(await ferry('publish', '--channel', 'production', '--platform', 'ios', '--dist', second.dir)).toBe(2);
      expect(stderr).toMatch(/native-change guard/);
    });

    it('rollback with nothing to roll back to exits 1 with the server message', async () => {
      const runtimeVersion = (config.ios as { runtimeVersion: string }).runtimeVersion;
      expect(
        await ferry('rollback', '--channel', 'production', '--platform', 'ios', '--runtime-version', runtimeVersion),
      ).toBe(1);
      expect(stderr).toMatch(/nothing to roll back/);
    });

    it('releases --json prints the list as JSON', async () => {
      const exported = exportOf();
      expect(await ferry('publish', '--channel', 'production', '--platform', 'android', '--dist', exported.dir)).toBe(
        0,
      );
      out.text = '';
      const runtimeVersion = (config.android as { runtimeVersion: string }).runtimeVersion;
      expect(
        await ferry(
          'releases',
          '--channel',
          'production',
          '--platform',
          'android',
          '--runtime-version',
          runtimeVersion,
          '--json',
        ),
      ).toBe(0);
      const { releases: list, nextCursor } = JSON.parse(out.text);
      expect(list).toHaveLength(1);
      expect(nextCursor).toBeNull();
      expect(list[0]).toMatchObject({ platform: 'android', fingerprint: 'fp-android-1', assetCount: 2 });
    });
  });
});

describe('withAssetsAgain', () => {
  const missing = (collecting: number) =>
    new FerryHttpError(422, 'ASSET_MISSING', 'gone', {
      missing: [{ key: 'k', hash: 'h', url: 'u' }],
      collecting: Array.from({ length: collecting }, () => ({ key: 'k', hash: 'h', url: 'u' })),
    });

  it('asks again after ASSET_MISSING, waiting first while a collection is deleting, at most three times', async () => {
    const waits: number[] = [];
    const said: number[] = [];
    const options = { sleep: async (ms: number) => void waits.push(ms), say: (n: number) => void said.push(n) };
    let calls = 0;
    expect(
      await withAssetsAgain(async () => {
        calls++;
        if (calls === 1) throw missing(1);
        if (calls === 2) throw missing(0);
        return 'published';
      }, options),
    ).toBe('published');
    expect(waits).toEqual([ASSET_COLLECTING_RETRY_SECONDS * 1000]);
    expect(said).toEqual([1, 1]);

    calls = 0;
    await expect(
      withAssetsAgain(async () => {
        calls++;
        throw missing(0);
      }, options),
    ).rejects.toMatchObject({ code: 'ASSET_MISSING' });
    expect(calls).toBe(ASSET_MISSING_ATTEMPTS);
  });

  it('any other refusal is final at once', async () => {
    let calls = 0;
    await expect(
      withAssetsAgain(
        async () => {
          calls++;
          throw new FerryHttpError(422, 'ASSET_URL_MISMATCH', 'elsewhere');
        },
        { sleep: async () => {}, say: () => {} },
      ),
    ).rejects.toMatchObject({ code: 'ASSET_URL_MISMATCH' });
    expect(calls).toBe(1);
  });
});
