import { createPrivateKey } from 'node:crypto';
import type { Release } from '@ferry/contracts';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../signing/development-signing-key.js';
import { NodeManifestSigner } from '../../signing/manifest-signer.js';
import { AssetUrls } from '../assets/asset-urls.js';
import { rolloutBucket } from '../rollout/rollout-bucket.js';
import type { HeadRollout } from '../rollout/track-timeline.js';
import type { ManifestOutcome } from './manifest-outcome.js';
import { parseManifestRequest, type ValidManifestRequest } from './manifest-request.js';
import { decideManifest, ManifestService } from './manifest-service.js';
import type { ManifestSignature } from './release-signatures.js';

const ID = '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b';

const EMBEDDED = '0f0e0d0c-0b0a-4909-8807-060504030201';
const OTHER = '00000000-0000-0000-0000-000000000000';
const release = { kind: 'release', id: ID } as const;
const directive = { kind: 'directive', id: '11111111-2222-4333-8444-555555555555' } as const;

// The spec's manifest rules 1–3 and the directives (issue 18) as a table; the entry is the one
// the device gets (chooseEntry decides it).
describe('decideManifest', () => {
  it.each([
    ['no release for the track', undefined, undefined, undefined, 'no-release'],
    ['no release, whatever the app runs', undefined, ID, EMBEDDED, 'no-release'],
    ['the app runs the newest release', release, ID, EMBEDDED, 'up-to-date'],
    ['the same id in upper case', release, ID.toUpperCase(), undefined, 'up-to-date'],
    ['the app runs something else', release, OTHER, EMBEDDED, 'update'],
    ['the app sent no current id', release, undefined, undefined, 'update'],
    ['roll back to embedded, the app runs an update', directive, ID, EMBEDDED, 'directive'],
    ['roll back to embedded, the app runs its embedded update', directive, EMBEDDED, EMBEDDED, 'up-to-date'],
    ['…in another case', directive, EMBEDDED.toUpperCase(), EMBEDDED, 'up-to-date'],
    ['roll back to embedded, no embedded id sent', directive, ID, undefined, 'directive'],
    ['roll back to embedded, no ids at all', directive, undefined, undefined, 'directive'],
  ] as const)('%s → %s', (_name, entry, current, embedded, expected) => {
    expect(decideManifest(entry, current, embedded)).toBe(expected);
  });
});

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
      signer,
      urls: new AssetUrls(() => 'https://cdn.test/ota'),
      log: pino({ level: 'silent' }),
      ttlMs: 60_000,
    });
    service.releasePublished(published, []);
    const outcome = await service.resolve({ channel: 'production', platform: 'ios', runtimeVersion: '1' }, 'expo');
    expect(outcome.kind === 'update' && outcome.signed.releaseId).toBe(ID);
    expect(saved.map((signed) => signed.namespace).sort()).toEqual(['expo', 'ota']);
  });
});

describe('ManifestService.resolveCached (what a remembered request resolved to)', () => {
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
    }) as Release;
  const serviceWith = (timeline: () => { head?: Release; fallback?: Release; rollout?: HeadRollout }) => {
    const service: ManifestService = new ManifestService({
      store: {
        timeline: async () => {
          const { head, fallback, rollout } = timeline();
          const stored = (release: Release | undefined) =>
            release && { kind: 'release' as const, release, signatures: service.sign(release) };
          return { head: stored(head), rollout, fallback: stored(fallback) };
        },
        saveSignatures: async () => {},
        saveDirectiveSignatures: async () => {},
        timelinesOfRecentTracks: async () => [],
      },
      signer,
      urls: new AssetUrls(() => 'https://cdn.test/ota'),
      log: pino({ level: 'silent' }),
      ttlMs: 60_000,
    });
    return service;
  };
  // The same headers from every device of the track: one memo entry, one remembered outcome.
  const parsed = parseManifestRequest({
    'expo-platform': 'ios',
    'expo-runtime-version': 'remembered',
    'expo-channel-name': 'production',
  }) as ValidManifestRequest;
  const servedId = (outcome: ManifestOutcome | undefined) =>
    outcome?.kind === 'update' ? outcome.signed.releaseId : outcome?.kind;
  const A = '0a0a0a0a-0000-4000-8000-00000000000a';
  const B = '0b0b0b0b-0000-4000-8000-00000000000b';

  it('a publish replaces what the request resolved to before', async () => {
    const service = serviceWith(() => ({}));
    expect(service.resolveCached(parsed)).toBeUndefined();
    const a = releaseOf(A);
    service.releasePublished(a, service.sign(a));
    expect(servedId(service.resolveCached(parsed))).toBe(A);
    expect(servedId(service.resolveCached(parsed))).toBe(A);
    const b = releaseOf(B);
    service.releasePublished(b, service.sign(b));
    expect(servedId(service.resolveCached(parsed))).toBe(B);
    service.trackChanged(b);
    expect(service.resolveCached(parsed)).toBeUndefined();
  });

  it('a running rollout is chosen per device every time, not remembered from the first device', async () => {
    const devices = Array.from({ length: 200 }, (_, i) => `device-${i}`);
    const inside = devices.find((id) => rolloutBucket(id, B) < 50)!;
    const outside = devices.find((id) => rolloutBucket(id, B) >= 50)!;
    const service = serviceWith(() => ({
      head: releaseOf(B),
      fallback: releaseOf(A),
      rollout: { releaseId: B, percent: 50, state: 'running' },
    }));
    await service.resolve(parsed.request, parsed.ns, inside);
    for (const [device, expected] of [
      [inside, B],
      [outside, A],
      [inside, B],
      [undefined, A],
    ] as const) {
      expect(servedId(service.resolveCached(parsed, device))).toBe(expected);
    }
  });

  it('two instances in one process (one memo of requests) each answer with their own track', async () => {
    const one = serviceWith(() => ({ head: releaseOf(A) }));
    const two = serviceWith(() => ({ head: releaseOf(B) }));
    await one.resolve(parsed.request, parsed.ns);
    await two.resolve(parsed.request, parsed.ns);
    for (let i = 0; i < 2; i++) {
      expect(servedId(one.resolveCached(parsed))).toBe(A);
      expect(servedId(two.resolveCached(parsed))).toBe(B);
    }
  });
});
