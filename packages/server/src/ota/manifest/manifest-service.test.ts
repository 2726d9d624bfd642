import { createPrivateKey } from 'node:crypto';
import type { Release } from '@ferry/contracts';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../signing/development-signing-key.js';
import { NodeManifestSigner } from '../../signing/manifest-signer.js';
import { decideManifest, ManifestService } from './manifest-service.js';
import type { ManifestSignature } from './release-signatures.js';

const ID = '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b';

// The spec's manifest rules 1–3 as a table.
describe('decideManifest', () => {
  it.each([
    ['no release for the track', undefined, undefined, 'no-release'],
    ['no release, whatever the app runs', undefined, ID, 'no-release'],
    ['the app runs the newest release', { id: ID }, ID, 'up-to-date'],
    ['the same id in upper case', { id: ID }, ID.toUpperCase(), 'up-to-date'],
    ['the app runs something else', { id: ID }, '00000000-0000-0000-0000-000000000000', 'update'],
    ['the app sent no current id', { id: ID }, undefined, 'update'],
  ] as const)('%s → %s', (_name, newest, current, expected) => {
    expect(decideManifest(newest, current)).toBe(expected);
  });
});

describe('ManifestService.releasePublished', () => {
  it('a release published without current signatures is loaded and signed on the next request, never served half-made', async () => {
    const key = generateSigningKey('Ferry unit test');
    const signer = new NodeManifestSigner(createPrivateKey(key.privateKeyPem), key.certificatePem, 'main');
    const release = {
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
        newestSigned: async () => ({ release, signatures: [] }),
        saveSignatures: async (_id, signatures) => {
          saved.push(...signatures);
        },
        newestSignedOfRecentTracks: async () => [],
      },
      signer,
      log: pino({ level: 'silent' }),
      ttlMs: 60_000,
    });
    service.releasePublished(release, []);
    const outcome = await service.resolve({ channel: 'production', platform: 'ios', runtimeVersion: '1' }, 'expo');
    expect(outcome.kind === 'update' && outcome.signed.releaseId).toBe(ID);
    expect(saved.map((signed) => signed.namespace).sort()).toEqual(['expo', 'ota']);
  });
});
