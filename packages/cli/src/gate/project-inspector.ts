import type { Platform } from '@ferry/contracts';
import { type AppSources, chooseApp } from '../apps/app-choice.js';
import type { Inspection } from './gate-verdict.js';

/**
 * What the gate, the bump's drift check and the deploy check need to know about the app at the
 * current checkout, per platform. The real one resolves both exactly as the publisher does
 * (expo-project-inspector.ts); tests swap in fakes.
 */
export interface ProjectInspector {
  runtimeVersion(platform: Platform): Promise<string>;
  fingerprint(platform: Platform): Promise<string>;
  /** The app config's updates.url: which app the builds belong to. Absent: the config names none. */
  updatesUrl?(): Promise<string | undefined>;
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

/**
 * The app whose production baseline the gate and the drift check read (a public endpoint: without
 * the header it answers for the default app): --app or OTA_APP, else the one the app config's
 * updates.url names. A config that does not resolve names none; its inspection reports why.
 */
export async function appOfProject(
  inspector: ProjectInspector,
  sources: Omit<AppSources, 'updatesUrl'>,
): Promise<string | undefined> {
  let updatesUrl: string | undefined;
  try {
    updatesUrl = await inspector.updatesUrl?.();
  } catch {
    updatesUrl = undefined;
  }
  return chooseApp({ ...sources, updatesUrl });
}
