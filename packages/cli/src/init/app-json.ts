import { CliError } from '../cli-error.js';
import type { ReleaseValues } from './app-files.js';

type Json = Record<string, unknown>;

/** What `ferry init` takes out of app.json, because app.config.js (through release.config.js) sets it. */
export interface AppJsonMove {
  /** app.json without the moved keys, as text (two-space indentation, as Expo's templates write it). */
  text: string;
  /** The release values app.json held, with Expo's defaults where it had none. */
  release: ReleaseValues;
  /** The dotted keys taken out, for the summary. */
  moved: string[];
}

/** Keys of `updates` that updatesConfig() of @ferry/expo/config sets; any other key stays in app.json. */
const UPDATES_KEYS_SET_BY_FERRY = [
  'enabled',
  'url',
  'requestHeaders',
  'checkAutomatically',
  'fallbackToCacheTimeout',
  'codeSigningCertificate',
  'codeSigningMetadata',
];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Android versionCode: a positive integer (app.json may hold it as a number or a numeric string). */
function versionCodeOf(value: unknown): number {
  if (value === undefined) return 1;
  const code = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
  if (typeof code !== 'number' || !Number.isSafeInteger(code) || code < 1) {
    throw new CliError(`app.json's expo.android.versionCode is ${JSON.stringify(value)}, not a positive integer.`);
  }
  return code;
}

/**
 * Moves the values Ferry's app.config.js sets out of app.json: the version and build numbers go to
 * release.config.js (one place, which `ferry bump` edits), and runtimeVersion and the `updates` keys
 * updatesConfig() sets are dropped (app.config.js computes them). Everything else stays; an
 * `updates` key Ferry does not set (say `enableBsdiffPatchSupport`) stays and is merged back.
 */
export function moveToAppConfig(appJsonText: string): AppJsonMove {
  let parsed: unknown;
  try {
    parsed = JSON.parse(appJsonText);
  } catch (error) {
    throw new CliError(`app.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(parsed)) throw new CliError('app.json does not hold a JSON object.');
  // app.json is `{ "expo": { … } }`, or (older projects) the config itself.
  const root = structuredClone(parsed);
  const expo = isObject(root.expo) ? root.expo : root;
  const ios = isObject(expo.ios) ? expo.ios : undefined;
  const android = isObject(expo.android) ? expo.android : undefined;
  const version = expo.version ?? '1.0.0';
  if (typeof version !== 'string')
    throw new CliError(`app.json's expo.version is ${JSON.stringify(version)}, not a string.`);
  const buildNumber = ios?.buildNumber ?? '1';
  if (typeof buildNumber !== 'string' && typeof buildNumber !== 'number') {
    throw new CliError(`app.json's expo.ios.buildNumber is ${JSON.stringify(buildNumber)}, not a build number.`);
  }
  const release: ReleaseValues = {
    appVersion: version,
    iosBuildNumber: String(buildNumber),
    androidVersionCode: versionCodeOf(android?.versionCode),
  };

  const moved: string[] = [];
  const take = (from: Json | undefined, key: string, name: string) => {
    if (from && key in from) {
      delete from[key];
      moved.push(name);
    }
  };
  take(expo, 'version', 'expo.version');
  take(expo, 'runtimeVersion', 'expo.runtimeVersion');
  take(ios, 'buildNumber', 'expo.ios.buildNumber');
  take(ios, 'runtimeVersion', 'expo.ios.runtimeVersion');
  take(android, 'versionCode', 'expo.android.versionCode');
  take(android, 'runtimeVersion', 'expo.android.runtimeVersion');
  if (isObject(expo.updates)) {
    const updates = expo.updates;
    for (const key of UPDATES_KEYS_SET_BY_FERRY) take(updates, key, `expo.updates.${key}`);
    if (Object.keys(updates).length === 0) delete expo.updates;
  }
  return { text: `${JSON.stringify(root, null, 2)}\n`, release, moved };
}
