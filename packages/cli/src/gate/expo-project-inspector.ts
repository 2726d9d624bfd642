import type { Platform } from '@ferry/contracts';
import { computeFingerprint } from '../fingerprint/app-fingerprint.js';
import { evaluateAppConfig, type PublicAppConfig, runtimeVersionOf } from '../publish/app-config.js';
import type { ProjectInspector } from './project-inspector.js';

/**
 * The real inspector: the publisher's own modules, so the gate, the drift check and the deploy
 * check resolve runtimeVersion (the evaluated app config) and the fingerprint (the app's own
 * `expo-updates fingerprint:generate`) exactly as `ferry publish` does.
 */
export function createExpoProjectInspector(projectRoot: string): ProjectInspector {
  let config: Promise<PublicAppConfig> | undefined;
  return {
    async runtimeVersion(platform: Platform) {
      config ??= evaluateAppConfig(projectRoot);
      return runtimeVersionOf(await config, platform);
    },
    async fingerprint(platform: Platform) {
      return (await computeFingerprint(projectRoot, platform)).hash;
    },
  };
}
