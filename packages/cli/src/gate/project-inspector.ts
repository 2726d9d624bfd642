import type { Platform } from '@ferry/contracts';
import type { Inspection } from './gate-verdict.js';

/**
 * What the gate, the bump's drift check and the deploy check need to know about the app at the
 * current checkout, per platform. The real one resolves both exactly as the publisher does
 * (expo-project-inspector.ts); tests swap in fakes.
 */
export interface ProjectInspector {
  runtimeVersion(platform: Platform): Promise<string>;
  fingerprint(platform: Platform): Promise<string>;
}

export type InspectorFactory = (projectRoot: string) => ProjectInspector;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resolves one platform's runtimeVersion and fingerprint; any failure becomes a value, not an exception. */
export async function inspectPlatform(inspector: ProjectInspector, platform: Platform): Promise<Inspection> {
  try {
    const runtimeVersion = await inspector.runtimeVersion(platform);
    const fingerprint = await inspector.fingerprint(platform);
    return { ok: true, runtimeVersion, fingerprint };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}
