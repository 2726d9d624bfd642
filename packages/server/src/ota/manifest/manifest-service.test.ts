import { createPrivateKey } from 'node:crypto';
import type { Release } from '@ferry/contracts';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../signing/development-signing-key.js';
import { NodeManifestSigner } from '../../signing/manifest-signer.js';
import { AssetUrls } from '../assets/asset-urls.js';
import { rolloutBucket } from '../rollout/rollout-bucket.js';
import type { HeadRollout } from '../rollout/track-timeline.js';
import type { ManifestAnswer } from './manifest-answer.js';
import { manifestAnswer, type TrackEntry } from './manifest-decision.js';
import { defaultAppSigner, ManifestService } from './manifest-service.js';
import type { ManifestSignature } from './release-signatures.js';

const ID = '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b';

/** The release id a multipart answer carries, or its label. */
const servedId = (answer: ManifestAnswer | undefined) =>
  answer?.status === 200 && answer.label !== 'no-update'
    ? /"id":"([^"]+)"/.exec(answer.body!.toString())?.[1]
    : answer?.label;

describe('ManifestService.releasePublished', () => {
  it('a release published without current signatures is loaded and signed on the next request, never served half-made', async () => {
    const key = generateSigningKey('Ferry unit test');
    const signer = new NodeManifestSigner(createPrivateKey(key.privateKeyPem), key.certificatePem, 'main');
    const published = {
      id: ID,
      channel: 'production',
      platform: 'ios',
      runtimeVersion: '1',
      launchAsset: { url: 'https://cdn.test/bundle', hash: 'a'.repeat(43) },
      assets: [],
      otaConfig: null,
      updatePolicy: null,
      metadata: {},
      createdAt: '2026-11-24T00:00:00.000Z',
      groupId: null,
      app: 'default',
    } as Release;
    const saved: ManifestSignature[] = [];
    const service = new ManifestService({
      store: {
        timeline: async () => ({
          head: { kind: 'release', release: published, signatures: [] },
          rollout: undefined,
          fallback: undefined,
        }),
        saveSignatures: async (_id, signatures) => {
          saved.push(...signatures);
        },
        saveDirectiveSignatures: async () => {},
        timelinesOfRecentTracks: async () => [],
      },
      signers: defaultAppSigner(signer),
      urls: new AssetUrls(() => 'https://cdn.test/ota'),
      log: pino({ level: 'silent' }),
      ttlMs: 60_000,
    });
    service.releasePublished(published, []);
    const track = await service.track({ app: 'default', channel: 'production', platform: 'ios', runtimeVersion: '1' });
    expect(
      servedId(
        manifestAnswer(
          track,
          { ns: 'expo', request: {}, clientId: undefined },
          'multipart',
          service.upToDateOf('default')!,
        ),
      ),
    ).toBe(ID);
    expect(saved.map((signed) => signed.namespace).sort()).toEqual(['expo', 'ota']);
  });
});

describe('ManifestService: the tracks in memory', () => {
  const key = generateSigningKey('Ferry unit test');
  const signer = new NodeManifestSigner(createPrivateKey(key.privateKeyPem), key.certificatePem, 'main');
  const releaseOf = (id: string) =>
    ({
      id,
      channel: 'production',
      platform: 'ios',
      runtimeVersion: 'remembered',
      launchAsset: { url: 'https://cdn.test/bundle', hash: 'a'.repeat(43) },
      assets: [],
      otaConfig: null,
      updatePolicy: null,
      metadata: {},
      createdAt: '2026-11-26T00:00:00.000Z',
      groupId: null,
      app: 'default',
    }) as Release;
  const serviceWith = (timeline: () => { head?: Release; fallback?: Release; rollout?: HeadRollout }) => {
    const service: ManifestService = new ManifestService({
      store: {
        timeline: async () => {
          const { head, fallback, rollout } = timeline();
          const stored = async (release: Release | undefined) =>
            release && { kind: 'release' as const, release, signatures: await service.sign(release) };
          return { head: await stored(head), rollout, fallback: await stored(fallback) };
        },
        saveSignatures: async () => {},
        saveDirectiveSignatures: async () => {},
        timelinesOfRecentTracks: async () => [],
      },
      signers: defaultAppSigner(signer),
      urls: new AssetUrls(() => 'https://cdn.test/ota'),
      log: pino({ level: 'silent' }),
      ttlMs: 60_000,
    });
    return service;
  };
  const trackKey = 'default\nproduction\nios\nremembered';
  const track = { app: 'default', channel: 'production', platform: 'ios', runtimeVersion: 'remembered' } as const;
  const answer = (service: ManifestService, found: TrackEntry | undefined, clientId?: string) =>
    found &&
    servedId(manifestAnswer(found, { ns: 'expo', request: {}, clientId }, 'multipart', service.upToDateOf('default')!));
  const A = '0a0a0a0a-0000-4000-8000-00000000000a';
  const B = '0b0b0b0b-0000-4000-8000-00000000000b';

  it('a publish replaces what the request resolved to before', async () => {
    const service = serviceWith(() => ({}));
    expect(service.cachedTrack(trackKey)).toBeUndefined();
    const a = releaseOf(A);
    service.releasePublished(a, await service.sign(a));
    expect(answer(service, service.cachedTrack(trackKey))).toBe(A);
    const b = releaseOf(B);
    service.releasePublished(b, await service.sign(b));
    expect(answer(service, service.cachedTrack(trackKey))).toBe(B);
    service.trackChanged(b);
    expect(service.cachedTrack(trackKey)).toBeUndefined();
  });

  it('a running rollout is chosen per device every time', async () => {
    const devices = Array.from({ length: 200 }, (_, i) => `device-${i}`);
    const inside = devices.find((id) => rolloutBucket(id, B) < 50)!;
    const outside = devices.find((id) => rolloutBucket(id, B) >= 50)!;
    const service = serviceWith(() => ({
      head: releaseOf(B),
      fallback: releaseOf(A),
      rollout: { releaseId: B, percent: 50, state: 'running' },
    }));
    await service.track(track);
    for (const [device, expected] of [
      [inside, B],
      [outside, A],
      [inside, B],
      [undefined, A],
    ] as const) {
      expect(answer(service, service.cachedTrack(trackKey), device)).toBe(expected);
    }
  });

  it('two instances in one process each answer with their own track', async () => {
    const one = serviceWith(() => ({ head: releaseOf(A) }));
    const two = serviceWith(() => ({ head: releaseOf(B) }));
    await one.track(track);
    await two.track(track);
    expect(answer(one, one.cachedTrack(trackKey))).toBe(A);
    expect(answer(two, two.cachedTrack(trackKey))).toBe(B);
  });
});
