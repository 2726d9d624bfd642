import path from 'node:path';
import { CliError } from '../cli-error.js';
import { evaluateExpoConfig, type PublicAppConfig } from '../publish/app-config.js';

/** expo-updates' key id when `codeSigningMetadata.keyid` is absent (CodeSigningConfiguration). */
export const EXPO_DEFAULT_KEY_ID = 'root';
/** The only algorithm of the Expo code-signing spec, and expo-updates' default. */
export const EXPO_DEFAULT_ALG = 'rsa-v1_5-sha256';

/** What a build embeds to verify manifests: `updates.codeSigningCertificate` and `codeSigningMetadata`. */
export interface AppCodeSigning {
  /** The path as the app config writes it (`./certs/certificate.pem`). */
  certificate: string;
  /** The same path, absolute. */
  certificateFile: string;
  /** Relative to the project with `/` separators: how messages and the fingerprint preset name it. */
  certificatePath: string;
  keyId: string;
  alg: string;
}

/** Reads the code-signing fields of the app's full (not public) config; undefined when it names no certificate. */
export type CodeSigningEvaluator = (projectRoot: string) => Promise<AppCodeSigning | undefined>;

/** The code-signing fields of an evaluated app config; undefined when it names no certificate. */
export function codeSigningOf(config: PublicAppConfig, projectRoot: string): AppCodeSigning | undefined {
  const updates = config.updates as
    | { codeSigningCertificate?: unknown; codeSigningMetadata?: { keyid?: unknown; alg?: unknown } }
    | undefined;
  const certificate = updates?.codeSigningCertificate;
  if (certificate === undefined || certificate === null || certificate === '') return undefined;
  if (typeof certificate !== 'string') {
    throw new CliError(
      `The app config's updates.codeSigningCertificate is ${JSON.stringify(certificate)}, not a path to a PEM file.`,
    );
  }
  const metadata = updates?.codeSigningMetadata ?? {};
  const certificateFile = path.resolve(projectRoot, certificate);
  return {
    certificate,
    certificateFile,
    certificatePath: path.relative(projectRoot, certificateFile).split(path.sep).join('/'),
    keyId: typeof metadata.keyid === 'string' && metadata.keyid !== '' ? metadata.keyid : EXPO_DEFAULT_KEY_ID,
    alg: typeof metadata.alg === 'string' && metadata.alg !== '' ? metadata.alg : EXPO_DEFAULT_ALG,
  };
}

/** The code-signing fields of the project's app config, evaluated by its own `expo/config`. */
export const evaluateCodeSigning: CodeSigningEvaluator = async (projectRoot) =>
  codeSigningOf(await evaluateExpoConfig(projectRoot, { isPublicConfig: false }), projectRoot);
