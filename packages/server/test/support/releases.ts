import { createHash } from 'node:crypto';
import type { ReleasePayloadInput } from '@ferry/contracts';

export const hashOf = (content: string): string => createHash('sha256').update(content).digest('base64url');

/** A valid release payload; override any field per test. */
export function releasePayload(overrides: Partial<ReleasePayloadInput> = {}): ReleasePayloadInput {
  return {
    channel: 'production',
    platform: 'ios',
    runtimeVersion: '1.0.0(1)',
    launchAsset: { url: 'https://cdn.example.test/bundle.hbc', hash: hashOf('bundle') },
    assets: [{ url: 'https://cdn.example.test/logo.png', hash: hashOf('logo') }],
    otaConfig: { name: 'app', slug: 'app', scheme: 'app' },
    fingerprint: 'fp-a',
    metadata: { commit: 'abc123', branch: 'main', actor: 'ci', runId: '42' },
    ...overrides,
  };
}
