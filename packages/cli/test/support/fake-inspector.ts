import type { Platform } from '@ferry/contracts';
import type { InspectorFactory, ProjectInspector } from '../../src/gate/project-inspector.js';

export type FakeIdentity = { runtimeVersion: string; fingerprint: string } | Error;

/** An inspector with fixed answers per platform (an Error makes that platform's resolution fail). */
export function fakeInspector(identities: Record<Platform, FakeIdentity>): InspectorFactory & { calls: number } {
  const factory = Object.assign(
    (): ProjectInspector => {
      const answer = async (platform: Platform) => {
        factory.calls++;
        const identity = identities[platform];
        if (identity instanceof Error) throw identity;
        return identity;
      };
      return {
        runtimeVersion: async (platform) => (await answer(platform)).runtimeVersion,
        fingerprint: async (platform) => (await answer(platform)).fingerprint,
      };
    },
    { calls: 0 },
  );
  return factory;
}
