import type { Platform } from '@ferry/contracts';
import type { AppSources } from '../apps/app-choice.js';
import { checkNativeAffected, type NativeAffectedResult } from '../native-affected/native-affected.js';
import { readProductionBaseline } from './baseline-reader.js';
import { type BaselineLookup, gateVerdict, type PlatformVerdict } from './gate-verdict.js';
import { appOfProject, inspectPlatform, type ProjectInspector } from './project-inspector.js';

export interface GateRun {
  projectRoot: string;
  base: string;
  platforms: Platform[];
  /** Undefined when neither --server nor OTA_SERVER_URL is set. */
  serverUrl?: string;
  /** --app and OTA_APP; with the app config's updates.url they name the app whose baseline is read. */
  app?: Omit<AppSources, 'updatesUrl'>;
  inspector: ProjectInspector;
  /** `--allow-unreachable`: a baseline that cannot be read passes with a warning instead of blocking. */
  allowUnreachable?: boolean;
  fetch?: typeof fetch;
}

export interface GateResult {
  nativeAffected: NativeAffectedResult;
  verdicts: PlatformVerdict[];
  blocked: boolean;
}

/**
 * The pre-merge gate: the native-affected check first (spec rule 1), then per platform the head's
 * runtimeVersion and fingerprint against the production baseline of that runtimeVersion.
 */
export async function runGate(run: GateRun): Promise<GateResult> {
  const nativeAffected = await checkNativeAffected({ projectRoot: run.projectRoot, base: run.base });
  const verdicts: PlatformVerdict[] = [];
  // Resolved once, before the first baseline is read (a request), and only if one is.
  let app: Promise<string | undefined> | undefined;
  const appOnce = () => {
    app ??= appOfProject(run.inspector, run.app ?? { env: {} });
    return app;
  };
  for (const platform of run.platforms) {
    if (!nativeAffected.affected) {
      verdicts.push(gateVerdict({ platform, affected: false }));
      continue;
    }
    // One platform at a time: the fingerprint is CPU- and IO-heavy, and CI runners are small.
    const inspection = await inspectPlatform(run.inspector, platform);
    let baseline: BaselineLookup | undefined;
    if (inspection.ok) {
      baseline = run.serverUrl
        ? await readProductionBaseline(
            {
              serverUrl: run.serverUrl,
              app: await appOnce(),
              fetch: run.fetch,
            },
            platform,
            inspection.runtimeVersion,
          )
        : { kind: 'no-server' };
    }
    verdicts.push(
      gateVerdict({ platform, affected: true, inspection, baseline, allowUnreachable: run.allowUnreachable }),
    );
  }
  return { nativeAffected, verdicts, blocked: verdicts.some((verdict) => verdict.outcome === 'block') };
}
