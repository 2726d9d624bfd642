import type { Platform } from '@ferry/contracts';
import { computeFingerprint } from '../fingerprint/app-fingerprint.js';
import { type FingerprintFunction, fingerprintsOnce } from '../fingerprint/fingerprint-reuse.js';
import {
  type AppConfigEvaluator,
  evaluateAppConfig,
  type PublicAppConfig,
  runtimeVersionOf,
  updatesUrlOf,
} from '../publish/app-config.js';
import type { InspectorFactory, ProjectInspector } from './project-inspector.js';

export interface ExpoProjectInspectorOptions {
  /** The fingerprint of one platform (default: the app's own, once per run, reused across the job). */
  fingerprint?: FingerprintFunction;
  evaluateAppConfig?: AppConfigEvaluator;
}

/**
 * The real inspector: the publisher's own modules, so the gate, the drift check and the deploy
 * check resolve runtimeVersion (the evaluated app config) and the fingerprint (the app's own
 * `expo-updates fingerprint:generate`) exactly as `ferry publish` does. Each platform's fingerprint
 * is computed at most once, and with FERRY_FINGERPRINT_CACHE set it is the one an earlier command
 * of the same job computed from the same inputs (fingerprint-reuse.ts).
 */
export function createExpoProjectInspector(
  projectRoot: string,
  options: ExpoProjectInspectorOptions = {},
): ProjectInspector {
  let config: Promise<PublicAppConfig> | undefined;
  const evaluated = () => {
    config ??= (options.evaluateAppConfig ?? evaluateAppConfig)(projectRoot);
    return config;
  };
  const fingerprint =
    options.fingerprint ?? fingerprintsOnce({ env: process.env, compute: computeFingerprint, command: 'ferry' });
  return {
    async runtimeVersion(platform: Platform) {
      return runtimeVersionOf(await evaluated(), platform);
    },
    async updatesUrl() {
      return updatesUrlOf(await evaluated());
    },
    async fingerprint(platform: Platform) {
      return (await fingerprint(projectRoot, platform)).hash;
    },
  };
}

/**
 * The inspector factory of one command (`ferry gate`, `ferry bump`), named in what it stores. Tests
 * pass the app config and the fingerprint command (the reuse around it is the real one).
 */
export const expoProjectInspector =
  (
    command: string,
    parts: { compute?: FingerprintFunction; evaluateAppConfig?: AppConfigEvaluator } = {},
  ): InspectorFactory =>
  (projectRoot) =>
    createExpoProjectInspector(projectRoot, {
      evaluateAppConfig: parts.evaluateAppConfig,
      fingerprint: fingerprintsOnce({ env: process.env, compute: parts.compute ?? computeFingerprint, command }),
    });
