import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RELEASE_CONTROL_CANDIDATES } from '../bump/locate-release-control-file.js';
import { CliError } from '../cli-error.js';
import type { CodeSigningPair } from '../keys/code-signing-keys.js';
import {
  appConfigFile,
  CERTIFICATE_PATH,
  FINGERPRINT_CONFIG_FILE,
  PRIVATE_KEY_PATH,
  type ReleaseValues,
  releaseConfigFile,
} from './app-files.js';
import { moveToAppConfig } from './app-json.js';
import { withFerryIgnores } from './gitignore.js';
import { ROOT_LAYOUT_CANDIDATES, withUpdateBanner } from './root-layout.js';

/** One file `ferry init` creates or changes, relative to the project with `/` separators. */
export interface PlannedFile {
  path: string;
  /** undefined: a new file. */
  before?: string;
  after: string;
  /** The private key: written 0600, never shown. */
  secret?: boolean;
  /** One line: why the file changes. */
  why: string;
}

export interface InitPlan {
  /** Only the files that change; none on a second run. */
  files: PlannedFile[];
  /** Files left as they are, with the reason (shown, never changed). */
  kept: string[];
  /** What the team does next (installs, the server's variables, `ferry doctor`). */
  nextSteps: string[];
}

export interface InitOptions {
  projectRoot: string;
  /** The production API address (`--server`, or OTA_SERVER_URL). */
  server?: string;
  /** The development API address (`--development-server`; default: the production one). */
  developmentServer?: string;
  /** An existing certificate to embed (`--certificate`); otherwise one is generated. */
  certificate?: string;
  /** The server's OTA_SIGNING_KEY_ID. */
  keyId: string;
  /** The app on the Ferry server (`--app`); absent: the default app, at its updates URL from before apps. */
  app?: string;
  /** Add the update-policy hook and banner to the root layout. */
  banner: boolean;
  /** Write the CI workflow templates. */
  workflows: boolean;
  /** The templates by name (workflow-templates.ts). */
  workflowTemplates: Map<string, string>;
  /** Makes a key pair and its certificate; only called when the app has none and none was given. */
  generateCertificate: () => CodeSigningPair;
}

/** Expo's app config files (@expo/config, getConfigFilePaths): a program, or JSON. */
const DYNAMIC_CONFIGS = [
  'app.config.ts',
  'app.config.js',
  'app.config.mjs',
  'app.config.cjs',
  'app.config.mts',
  'app.config.cts',
];

/** The extended key usage expo-updates requires of the embedded certificate. */
const CODE_SIGNING_EKU = '1.3.6.1.5.5.7.3.3';

const read = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

function apiAddress(raw: string, option: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(
      `${option} must be the server's address, such as https://api.example.com (got ${JSON.stringify(raw)}).`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(`${option} must be an http(s) address (got ${JSON.stringify(raw)}).`);
  }
  return raw.replace(/\/+$/, '');
}

/** A certificate a build can embed: PEM, X.509, with the code-signing usage. */
function checkedCertificate(pem: string, name: string): string {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    throw new CliError(`${name} is not a PEM certificate.`);
  }
  if (!(certificate.keyUsage ?? []).includes(CODE_SIGNING_EKU)) {
    throw new CliError(`${name} lacks the code-signing extended key usage that expo-updates requires.`);
  }
  if (new Date(certificate.validTo) < new Date()) throw new CliError(`${name} expired on ${certificate.validTo}.`);
  return pem;
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * What `ferry init` would write into an existing Expo app, as a list of file changes, computed
 * without writing anything: the diff is shown from it, and it is applied only with consent. A
 * second run over the result plans nothing.
 */
export function planInit(options: InitOptions): InitPlan {
  const root = options.projectRoot;
  const at = (file: string) => path.join(root, file);
  const files: PlannedFile[] = [];
  const kept: string[] = [];
  const nextSteps: string[] = [];
  const change = (file: string, after: string, why: string, secret = false) => {
    const before = read(at(file));
    if (before !== after) files.push({ path: file, ...(before === undefined ? {} : { before }), after, why, secret });
  };

  const packageText = read(at('package.json'));
  if (packageText === undefined) throw new CliError(`${root} has no package.json: run ferry init in an Expo app.`);
  const pkg = JSON.parse(packageText) as PackageJson;
  const dependencies = { ...pkg.dependencies, ...pkg.devDependencies };
  if (!dependencies.expo) throw new CliError(`${root} does not depend on expo: run ferry init in an Expo app.`);

  // ── The app config.
  const dynamic = DYNAMIC_CONFIGS.find((name) => read(at(name)) !== undefined);
  const releaseFile = RELEASE_CONTROL_CANDIDATES.find((name) => read(at(name)) !== undefined);
  let release: ReleaseValues = { appVersion: '1.0.0', androidVersionCode: 1, iosBuildNumber: '1' };
  if (dynamic !== undefined) {
    if (!read(at(dynamic))!.includes('@ferry/expo/config')) {
      throw new CliError(
        `${dynamic} is a program of your own: ferry init does not rewrite code it did not write. Add Ferry's ` +
          'updates block, runtimeVersion and release values to it by hand (docs/add-to-an-app.md, "An app.config of ' +
          'your own"), then run ferry init again for the rest.',
      );
    }
    kept.push(`${dynamic} (it already uses @ferry/expo/config)`);
    if (options.app !== undefined && !read(at(dynamic))!.includes(`'${options.app}'`)) {
      nextSteps.push(`Point ${dynamic} at app '${options.app}': pass app: '${options.app}' to updatesConfig()`);
    }
  } else {
    const appJson = read(at('app.json'));
    if (appJson === undefined) {
      throw new CliError(
        `${root} has no app.json and no app.config: ferry init adds Ferry to an app made by create-expo-app. ` +
          'See docs/add-to-an-app.md for other layouts.',
      );
    }
    const server = options.server;
    if (server === undefined) {
      throw new CliError(
        'Which Ferry server do the builds ask for updates? Pass --server <its API address> (and ' +
          '--development-server for the development channel), or set OTA_SERVER_URL.',
      );
    }
    const productionUrl = apiAddress(server, '--server');
    const developmentUrl = apiAddress(options.developmentServer ?? server, '--development-server');
    const moved = moveToAppConfig(appJson);
    release = moved.release;
    change(
      'app.config.js',
      appConfigFile({
        releaseModule: `./${releaseFile ?? 'release.config.js'}`,
        developmentUrl,
        productionUrl,
        keyId: options.keyId,
        app: options.app,
      }),
      'the updates URL, channel header and code signing per APP_ENV; runtimeVersion per platform',
    );
    if (moved.moved.length > 0) {
      change('app.json', moved.text, `moved to release.config.js and app.config.js: ${moved.moved.join(', ')}`);
    }
  }
  if (releaseFile === undefined) {
    change('release.config.js', releaseConfigFile(release), 'the release values: version and build numbers');
  } else {
    kept.push(`${releaseFile} (the release control file)`);
  }

  // ── The fingerprint configuration.
  const fingerprintFile = ['fingerprint.config.js', 'fingerprint.config.cjs'].find(
    (name) => read(at(name)) !== undefined,
  );
  if (fingerprintFile === undefined) {
    change(
      'fingerprint.config.js',
      FINGERPRINT_CONFIG_FILE,
      "Ferry's fingerprint preset: the native inputs the guard sees",
    );
  } else if (read(at(fingerprintFile))!.includes('@ferry/expo/fingerprint')) {
    kept.push(`${fingerprintFile} (it uses Ferry's preset)`);
  } else {
    kept.push(`${fingerprintFile} (your own; Ferry's preset is recommended: docs/publishing.md, "The fingerprint")`);
  }

  // ── The certificate the builds embed.
  const existing = read(at(CERTIFICATE_PATH));
  const given = options.certificate === undefined ? undefined : read(path.resolve(root, options.certificate));
  if (options.certificate !== undefined && given === undefined) {
    throw new CliError(`--certificate ${options.certificate}: no such file.`);
  }
  if (existing !== undefined) {
    if (given !== undefined && given !== existing) {
      throw new CliError(
        `${CERTIFICATE_PATH} exists and differs from ${options.certificate}. ferry init never replaces the ` +
          'certificate builds embed: installed builds reject updates signed by another key. Remove it first if that ' +
          'is what you want.',
      );
    }
    checkedCertificate(existing, CERTIFICATE_PATH);
    kept.push(`${CERTIFICATE_PATH} (the certificate the builds embed)`);
  } else if (given !== undefined) {
    change(
      CERTIFICATE_PATH,
      checkedCertificate(given, options.certificate!),
      `the certificate builds embed, from ${options.certificate}`,
    );
  } else {
    const pair = options.generateCertificate();
    change(CERTIFICATE_PATH, pair.certificatePem, 'a new code-signing certificate for the builds to embed');
    change(PRIVATE_KEY_PATH, pair.privateKeyPem, 'its private key, for the server only (git-ignored)', true);
    nextSteps.push(
      `Give the server the new key (then move ${PRIVATE_KEY_PATH} out of the app): ` +
        (options.app === undefined
          ? `OTA_SIGNING_KEY_PATH=<path of private-key.pem> OTA_SIGNING_CERT_PATH=<path of certificate.pem> ` +
            `OTA_SIGNING_KEY_ID=${options.keyId}`
          : // An app's key lives in the server's database: it is imported with the app, or by a rotation.
            `ferry-server apps create ${options.app} --key-file <path of private-key.pem> ` +
            `--certificate-file <path of certificate.pem> --key-id ${options.keyId} (an app that exists: ` +
            `ferry-server apps rotate-key ${options.app} with the same files). Or embed the certificate ` +
            `\`ferry-server apps create\` printed instead: ferry init --app ${options.app} --certificate <its file>`),
    );
  }

  // ── .gitignore: the certificate committed, the private key never.
  change(
    '.gitignore',
    withFerryIgnores(read(at('.gitignore'))),
    `commit ${CERTIFICATE_PATH}, never ${PRIVATE_KEY_PATH}`,
  );

  // ── The CI workflow templates.
  if (options.workflows) {
    for (const [name, text] of options.workflowTemplates) {
      const file = `.github/workflows/${name}`;
      const current = read(at(file));
      if (current === undefined || current === text) change(file, text, 'CI workflow template (docs/pipeline.md)');
      else kept.push(`${file} (your own)`);
    }
  }

  // ── The update-policy hook and banner in the root layout.
  if (options.banner) {
    const layout = ROOT_LAYOUT_CANDIDATES.find((name) => read(at(name)) !== undefined);
    if (layout === undefined) {
      throw new CliError(
        `--banner: no Expo Router root layout (${ROOT_LAYOUT_CANDIDATES.join(', ')}). Add the banner by hand ` +
          '(docs/app-sdk.md, "Update policy: hook and banner").',
      );
    }
    const edited = withUpdateBanner(read(at(layout))!, {
      insets: dependencies['react-native-safe-area-context'] !== undefined,
    });
    if (!edited.ok) {
      throw new CliError(
        `--banner: ${layout} was not changed: ${edited.reason}. Add the banner by hand (docs/app-sdk.md, ` +
          '"Update policy: hook and banner").',
      );
    }
    if (edited.changed) change(layout, edited.text, 'the update-policy hook and banner of @ferry/expo');
    else kept.push(`${layout} (it already uses the update-policy hook)`);
  }

  const missing = [
    ...(pkg.dependencies?.['@ferry/expo'] ? [] : ['npm install @ferry/expo']),
    ...(pkg.dependencies?.['expo-updates'] ? [] : ['npx expo install expo-updates']),
    ...(dependencies['@ferry/cli'] ? [] : ['npm install --save-dev @ferry/cli']),
  ];
  if (missing.length > 0) nextSteps.unshift(`Install what the app config and CI need: ${missing.join(' && ')}`);
  nextSteps.push(
    `Check the app and the server together: APP_ENV=production OTA_RELEASE_TOKEN=<${options.app === undefined ? 'release token' : `release token of app '${options.app}'`}> npx ferry doctor`,
  );
  return { files, kept, nextSteps };
}
