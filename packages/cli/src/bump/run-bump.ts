import fs from 'node:fs/promises';
import path from 'node:path';
import { PLATFORMS } from '@ferry/contracts';
import type { AppSources } from '../apps/app-choice.js';
import { readProductionBaseline } from '../gate/baseline-reader.js';
import { appOfProject, inspectPlatform, type ProjectInspector } from '../gate/project-inspector.js';
import { listTags } from '../native-affected/git.js';
import {
  androidCode,
  BumpError,
  type BumpKind,
  nativeTagName,
  nextAppVersion,
  nextBuildNumbers,
  parseNativeTag,
} from './bump-arithmetic.js';
import { type DriftVerdict, driftVerdict } from './drift.js';
import { locateReleaseControlFile } from './locate-release-control-file.js';
import { ReleaseControlFile, type ReleaseControlName } from './release-control-file.js';

export interface BumpRun {
  projectRoot: string;
  kind: BumpKind;
  /** The release control file; found in the project when not given. */
  file?: string;
  ifDrift: boolean;
  serverUrl?: string;
  /** --app and OTA_APP; with the app config's updates.url they name the app whose baseline is read. */
  app?: Omit<AppSources, 'updatesUrl'>;
  inspector: ProjectInspector;
  fetch?: typeof fetch;
}

export interface BumpChange {
  name: ReleaseControlName;
  from: string | number;
  to: string | number;
}

export interface BumpResult {
  bumped: boolean;
  file: string;
  changes: BumpChange[];
  /** Why it bumped or did not (the drift verdicts), and anything the person should know. */
  notes: string[];
}

export async function runBump(run: BumpRun): Promise<BumpResult> {
  const file = await locateReleaseControlFile(run.projectRoot, run.file);
  const control = ReleaseControlFile.parse(
    path.relative(run.projectRoot, file) || file,
    await fs.readFile(file, 'utf8'),
  );
  const values = control.values();
  const notes: string[] = [];

  if (run.ifDrift) {
    const verdicts = await driftVerdicts(run);
    notes.push(...verdicts.map((verdict) => verdict.message));
    const unknown = verdicts.filter((verdict) => verdict.drift === 'unknown');
    if (unknown.length > 0) {
      throw new BumpError(
        `the drift check could not decide, so nothing was bumped:\n  ${unknown.map((v) => v.message).join('\n  ')}`,
      );
    }
    if (!verdicts.some((verdict) => verdict.drift === true)) return { bumped: false, file, changes: [], notes };
  }

  const tags = (await listTags(run.projectRoot, 'native-v*')).map(parseNativeTag).filter((tag) => tag !== undefined);
  const changes: BumpChange[] = [];
  if (run.kind === 'build') {
    const next = nextBuildNumbers(
      { iosBuildNumber: values.IOS_BUILD_NUMBER, androidVersionCode: values.ANDROID_VERSION_CODE },
      tags,
    );
    changes.push({ name: 'IOS_BUILD_NUMBER', from: values.IOS_BUILD_NUMBER, to: next.iosBuildNumber });
    changes.push({ name: 'ANDROID_VERSION_CODE', from: values.ANDROID_VERSION_CODE, to: next.androidVersionCode });
  } else {
    changes.push({ name: 'APP_VERSION', from: values.APP_VERSION, to: nextAppVersion(values.APP_VERSION, run.kind) });
    const current = androidCode(values.ANDROID_VERSION_CODE);
    const shipped = tags.reduce<(typeof tags)[number] | undefined>(
      (highest, tag) => (tag.androidVersionCode > (highest?.androidVersionCode ?? 0) ? tag : highest),
      undefined,
    );
    if (shipped && shipped.androidVersionCode >= current) {
      notes.push(
        `ANDROID_VERSION_CODE ${current} is not above the store tag ${shipped.tag}: run \`ferry bump build\` before the next store build`,
      );
    }
  }
  for (const change of changes) control.set(change.name, change.to);
  await fs.writeFile(file, control.text);
  return { bumped: true, file, changes, notes };
}

async function driftVerdicts(run: BumpRun): Promise<DriftVerdict[]> {
  const verdicts: DriftVerdict[] = [];
  // Resolved once, before the first baseline is read (a request), and only if one is.
  let app: Promise<string | undefined> | undefined;
  const appOnce = () => {
    app ??= appOfProject(run.inspector, run.app ?? { env: {} });
    return app;
  };
  for (const platform of PLATFORMS) {
    const inspection = await inspectPlatform(run.inspector, platform);
    const baseline =
      inspection.ok && run.serverUrl
        ? await readProductionBaseline(
            {
              serverUrl: run.serverUrl,
              app: await appOnce(),
              fetch: run.fetch,
            },
            platform,
            inspection.runtimeVersion,
          )
        : undefined;
    verdicts.push(driftVerdict(platform, inspection, baseline));
  }
  return verdicts;
}

/** The tag a store deploy of these values gets (spec, Versioning rule 4). */
export function storeTagOf(control: ReleaseControlFile): string {
  const values = control.values();
  return nativeTagName(values.APP_VERSION, values.ANDROID_VERSION_CODE);
}
