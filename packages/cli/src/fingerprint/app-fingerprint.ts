import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CliError } from '../cli-error.js';
import { type CodeSigningEvaluator, evaluateCodeSigning } from '../code-signing/app-code-signing.js';
import { certificateCoverageProblem } from '../code-signing/certificate-coverage.js';

/**
 * How Ferry fingerprints an app: exactly as `npx expo-updates fingerprint:generate --platform <p>`
 * does, because it runs that command. The app's own expo-updates CLI (resolved from the project,
 * never downloaded, never a copy bundled with Ferry) computes the fingerprint with the app's own
 * @expo/fingerprint (through `expo/fingerprint`, as expo-updates imports it) and the app's
 * fingerprint.config.js, in the app's directory, with the options that command passes (one
 * platform, silent, the workflow detected as expo-updates detects it). So the value Ferry stores
 * and the guard compares is the one a team can print with Expo's own tool, and the one EAS and
 * expo-updates compute for the `fingerprint` runtime-version policy.
 *
 * The publisher and the gate (and with it the drift check of `ferry bump`) all come through here.
 */

export type FingerprintPlatform = 'ios' | 'android';

/** One source of a fingerprint as @expo/fingerprint reports it (the shape is the app's version's). */
export type FingerprintSource = {
  type: string;
  id?: string;
  filePath?: string;
  reasons?: string[];
  hash: string | null;
} & Record<string, unknown>;

export interface PlatformFingerprint {
  hash: string;
  sources: FingerprintSource[];
}

/** What in the app computes its fingerprint. */
export interface AppFingerprintTool {
  /** The app's expo-updates: its directory, version and CLI script (`npx expo-updates` runs it). */
  expoUpdates: { dir: string; version: string; cli: string };
  /** The @expo/fingerprint that expo-updates loads through `expo/fingerprint`. */
  fingerprint: { dir: string; version: string };
}

/** The app's fingerprint.config.js (or .cjs), as @expo/fingerprint finds it. */
export interface FingerprintConfigInfo {
  /** Relative to the project. */
  file: string;
  /** Present when the config was made by @ferry/expo/fingerprint's preset. */
  ferryPreset?: {
    version: number;
    releaseControlFile: string | null;
    /** The code-signing certificate the preset hashes (from preset 2 on; null: `false` was passed). */
    codeSigningCertificate?: string | null;
  };
}

/** The file names @expo/fingerprint looks for in the project (Config.ts, CONFIG_FILES). */
export const FINGERPRINT_CONFIG_FILES = ['fingerprint.config.js', 'fingerprint.config.cjs'] as const;

/** The mark @ferry/expo/fingerprint puts on a config it made (a registered symbol, so any copy agrees). */
export const FERRY_FINGERPRINT_PRESET = Symbol.for('@ferry/expo/fingerprint-preset');

const readVersion = (packageJson: string): string => {
  try {
    const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
};

/**
 * Finds the app's expo-updates and the @expo/fingerprint it computes with, resolved from the
 * project root as Node resolves them for `npx expo-updates` there. Refuses when either is missing:
 * a fingerprint from any other copy would not be the one expo-updates prints.
 */
export function resolveAppFingerprintTool(projectRoot: string): AppFingerprintTool {
  const projectRequire = createRequire(path.join(projectRoot, 'package.json'));
  let updatesManifest: string;
  try {
    updatesManifest = projectRequire.resolve('expo-updates/package.json');
  } catch {
    throw new CliError(
      `Cannot compute the native fingerprint: expo-updates is not installed in ${projectRoot}. Ferry computes ` +
        'the fingerprint as `npx expo-updates fingerprint:generate` does, with the app’s own @expo/fingerprint ' +
        '(expo-updates brings it through expo). Add it with `npx expo install expo-updates`, then run `npm ci`.',
    );
  }
  const updatesDir = path.dirname(updatesManifest);
  const manifest = JSON.parse(fs.readFileSync(updatesManifest, 'utf8')) as {
    version?: string;
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['expo-updates'];
  const cli = bin === undefined ? undefined : path.resolve(updatesDir, bin);
  if (cli === undefined || !fs.existsSync(cli)) {
    throw new CliError(
      `Cannot compute the native fingerprint: expo-updates ${manifest.version ?? ''} in ${updatesDir} has no ` +
        '`expo-updates` command. Install the expo-updates version of your Expo SDK (`npx expo install expo-updates`).',
    );
  }
  let fingerprintManifest: string;
  try {
    // expo-updates imports `expo/fingerprint`, which re-exports @expo/fingerprint: resolve both the same way.
    const expoFingerprint = createRequire(updatesManifest).resolve('expo/fingerprint');
    fingerprintManifest = createRequire(expoFingerprint).resolve('@expo/fingerprint/package.json');
  } catch {
    throw new CliError(
      `Cannot compute the native fingerprint: @expo/fingerprint is not installed in ${projectRoot} (expo-updates ` +
        'loads it through `expo/fingerprint`, which comes with the expo package). Ferry does not fall back to a ' +
        'copy of its own, whose hashes would differ from what expo-updates prints. Run `npm ci` in the project.',
    );
  }
  return {
    expoUpdates: { dir: updatesDir, version: manifest.version ?? 'unknown', cli },
    fingerprint: { dir: path.dirname(fingerprintManifest), version: readVersion(fingerprintManifest) },
  };
}

/**
 * Loads the app's fingerprint.config.js the way @expo/fingerprint does (require from the project).
 * @expo/fingerprint swallows an error there and silently hashes with its defaults; Ferry refuses
 * instead, so that a broken config never becomes a baseline.
 */
export function loadFingerprintConfig(projectRoot: string): FingerprintConfigInfo | undefined {
  const present = FINGERPRINT_CONFIG_FILES.filter((name) => {
    try {
      return fs.statSync(path.join(projectRoot, name)).isFile();
    } catch {
      return false;
    }
  });
  if (present.length > 1) {
    throw new CliError(
      `The project has both ${present.join(' and ')}; @expo/fingerprint reads whichever it finds first. Keep one.`,
    );
  }
  const file = present[0];
  if (file === undefined) return undefined;
  const absolute = path.join(projectRoot, file);
  let loaded: unknown;
  try {
    loaded = createRequire(path.join(projectRoot, 'package.json'))(absolute);
  } catch (error) {
    throw new CliError(
      `${file} failed to load: ${error instanceof Error ? error.message : String(error)}. @expo/fingerprint would ` +
        'ignore it without a word and hash with its defaults; fix it (`node -e "require(\'./' +
        `${file}')"\` in the project shows the error).`,
    );
  }
  // @expo/fingerprint reads the keys of what require() returns, with no `default` unwrapping.
  const config = loaded;
  if (config === null || typeof config !== 'object') {
    throw new CliError(`${file} exports ${config === null ? 'null' : typeof config}, not a fingerprint config object.`);
  }
  if ('default' in config && !(FERRY_FINGERPRINT_PRESET in config)) {
    throw new CliError(
      `${file} has a default export, which @expo/fingerprint does not read (it takes the keys of module.exports ` +
        'itself). Write `module.exports = …`.',
    );
  }
  const mark = (config as Record<symbol, unknown>)[FERRY_FINGERPRINT_PRESET] as
    | FingerprintConfigInfo['ferryPreset']
    | undefined;
  return mark && typeof mark.version === 'number' ? { file, ferryPreset: { ...mark } } : { file };
}

/** The warning for an app whose fingerprint does not use Ferry's preset; undefined when it does. */
export function presetWarning(config: FingerprintConfigInfo | undefined, tool: AppFingerprintTool): string | undefined {
  if (config?.ferryPreset) return undefined;
  const where = config ? `${config.file} does not use` : 'the app has no fingerprint.config.js with';
  return (
    `${where} Ferry's preset (@ferry/expo/fingerprint), so the fingerprint uses @expo/fingerprint ` +
    `${tool.fingerprint.version}'s defaults: from 0.21 on these hash native modules and config plugins by ` +
    'name@version only (an internal file change goes unnoticed) and skip versions, eas.json and autolinking ' +
    'paths. See docs/publishing.md, "The fingerprint".'
  );
}

/** The variable that names the job's fingerprint file; unset or empty: no reuse across commands. */
export const FINGERPRINT_CACHE_VARIABLE = 'FERRY_FINGERPRINT_CACHE';

/**
 * What the fingerprint command never gets, so that it cannot depend on them (and the key can leave
 * them out): Ferry's release token (a secret, which no app config may read: the store build does
 * not have it), this file's name, and what the GitHub Actions runner sets differently for each
 * step (its bookkeeping files and action names) or a shell sets for each command (`_`).
 */
export const WITHHELD_VARIABLES: readonly string[] = [
  'OTA_RELEASE_TOKEN',
  FINGERPRINT_CACHE_VARIABLE,
  'GITHUB_ACTION',
  'GITHUB_ACTION_PATH',
  'GITHUB_ACTION_REF',
  'GITHUB_ACTION_REPOSITORY',
  'GITHUB_ENV',
  'GITHUB_OUTPUT',
  'GITHUB_PATH',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY',
  '_',
];

/** The environment the fingerprint command runs with: this one without WITHHELD_VARIABLES. */
export function fingerprintEnvironment(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const withheld = new Set(WITHHELD_VARIABLES);
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== undefined && !withheld.has(name)));
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runNode(script: string, args: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: fingerprintEnvironment(process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
  });
}

const tail = (text: string, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');

/** The JSON line `expo-updates fingerprint:generate` prints: `{"sources":[…],"hash":"…"}`. */
export function parseFingerprintOutput(stdout: string): PlatformFingerprint | undefined {
  const lines = stdout.split('\n').filter((line) => line.trim().startsWith('{'));
  for (const line of lines.reverse()) {
    try {
      const parsed = JSON.parse(line) as { hash?: unknown; sources?: unknown };
      if (typeof parsed.hash === 'string' && parsed.hash !== '' && Array.isArray(parsed.sources)) {
        return { hash: parsed.hash, sources: parsed.sources as FingerprintSource[] };
      }
    } catch {
      // not the result line
    }
  }
  return undefined;
}

export interface ComputeOptions {
  /** Where the one-line note on how the fingerprint was made goes (stderr by default; stdout stays the report). */
  log?: (line: string) => void;
  /** Reads the certificate the app config embeds (default: the app's own `expo/config`). */
  codeSigning?: CodeSigningEvaluator;
}

/**
 * One platform's fingerprint of an installed project: `expo-updates fingerprint:generate
 * --platform <platform>` of the app, run in the project directory.
 */
export async function computeFingerprint(
  projectRoot: string,
  platform: FingerprintPlatform,
  options: ComputeOptions = {},
): Promise<PlatformFingerprint> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const tool = resolveAppFingerprintTool(projectRoot);
  const config = loadFingerprintConfig(projectRoot);
  if (config?.ferryPreset) {
    // The certificate is a native input (a new one makes every build reject every update): the
    // preset must hash the very file the build embeds, or a swap passes the guard and the gate.
    const embedded = await (options.codeSigning ?? evaluateCodeSigning)(projectRoot);
    const problem = certificateCoverageProblem(config.file, config.ferryPreset, embedded);
    if (problem) throw new CliError(problem);
  }
  const run = await runNode(tool.expoUpdates.cli, ['fingerprint:generate', '--platform', platform], projectRoot);
  const command = `expo-updates fingerprint:generate --platform ${platform}`;
  if (run.code !== 0) {
    throw new CliError(
      `${command} failed in ${projectRoot} (exit code ${run.code}):\n${tail(`${run.stderr}\n${run.stdout}`)}`,
    );
  }
  const result = parseFingerprintOutput(run.stdout);
  if (!result) {
    throw new CliError(`${command} printed no fingerprint:\n${tail(`${run.stdout}\n${run.stderr}`)}`);
  }
  assertCompleteSources(result.sources, platform);
  const preset = config?.ferryPreset ? `, ${config.file}: Ferry's preset ${config.ferryPreset.version}` : '';
  log(
    `${platform}: fingerprint ${result.hash} (\`npx ${command}\` of the app: expo-updates ` +
      `${tool.expoUpdates.version}, @expo/fingerprint ${tool.fingerprint.version}${preset})`,
  );
  const warning = presetWarning(config, tool);
  if (warning) log(`warning: ${warning}`);
  return result;
}

const reasonsOf = (source: FingerprintSource): string[] => source.reasons ?? [];

/** What must be in every fingerprint of an installed Expo project, and how to recognise it. */
export const REQUIRED_SOURCES: Array<{ name: string; present: (s: FingerprintSource) => boolean }> = [
  { name: 'the evaluated app config (expoConfig)', present: (s) => s.id === 'expoConfig' },
  { name: 'the react-native package', present: (s) => reasonsOf(s).includes('package:react-native') },
  {
    name: 'the autolinking configuration',
    present: (s) => /AutolinkingConfig:/.test(s.id ?? '') || reasonsOf(s).some((r) => /autolinking/i.test(r)),
  },
];

/**
 * @expo/fingerprint swallows each source's errors and quietly hashes what is left, so a project
 * that was not installed yields a small, wrong fingerprint with exit code 0. Refuse that.
 */
export function assertCompleteSources(sources: FingerprintSource[], platform: FingerprintPlatform): void {
  const missing = REQUIRED_SOURCES.filter((required) => !sources.some(required.present)).map((r) => r.name);
  if (missing.length > 0) {
    throw new CliError(
      `The ${platform} fingerprint lacks ${missing.join(', ')}. The project is not installed (or its app config ` +
        'failed to evaluate): run `npm ci` in the project and make sure `npx expo config` works, then retry.',
    );
  }
}
