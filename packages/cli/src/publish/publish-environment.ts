import { UPDATE_POLICY_VALUES, type UpdatePolicy, UpdatePolicySchema, updatePolicyName } from '@ferry/contracts';
import { CliError } from '../cli-error.js';

export type Env = Record<string, string | undefined>;

/** What `ferry publish` reads from the environment, validated before anything is exported or uploaded. */
export interface PublishEnvironment {
  serverUrl: string;
  /** OTA_RELEASE_TOKEN; never printed. */
  token: string;
  updatePolicy?: UpdatePolicy;
  allowNativeChange: boolean;
}

const present = (value: string | undefined): value is string => value !== undefined && value !== '';

/** CI systems set CI=true (GitHub Actions, GitLab, CircleCI, …); "false" and "0" mean a local shell. */
export function isCi(env: Env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return present(value) && value !== 'false' && value !== '0';
}

/** The policies as OTA_UPDATE_POLICY takes them: "1 (Immediate), 2 (Notify) or 3 (Default)". */
const POLICY_CHOICES = (() => {
  const choices = UPDATE_POLICY_VALUES.map((value) => `${value} (${updatePolicyName(value)})`);
  return `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
})();

/** OTA_UPDATE_POLICY: exactly one policy's value; unset or empty leaves the policy out of the release. */
export function parseUpdatePolicy(raw: string | undefined): UpdatePolicy | undefined {
  if (!present(raw)) return undefined;
  const parsed = /^[0-9]$/.test(raw) ? UpdatePolicySchema.safeParse(Number(raw)) : undefined;
  if (!parsed?.success) {
    throw new CliError(`OTA_UPDATE_POLICY must be ${POLICY_CHOICES}, or unset; got ${JSON.stringify(raw)}.`);
  }
  return parsed.data;
}

/** OTA_ALLOW_NATIVE_CHANGE: "1" bypasses the guard; unset, empty or "0" does not; anything else is a typo. */
export function parseAllowNativeChange(raw: string | undefined): boolean {
  if (!present(raw) || raw === '0') return false;
  if (raw === '1') return true;
  throw new CliError(
    `OTA_ALLOW_NATIVE_CHANGE must be 1 (bypass the native-change guard) or unset; got ${JSON.stringify(raw)}.`,
  );
}

export const LOCAL_PUBLISH_REFUSAL =
  'ferry publish runs only in CI (set CI=true there). The native fingerprint depends on whether ' +
  'native folders (ios/, android/) exist and on the exact installed dependencies, so a fingerprint ' +
  'computed on a developer machine can differ from the store build and either block CI or let a ' +
  'native change through. Publish from the CI pipeline instead.';

export function parseServerUrl(raw: string | undefined): string {
  if (!present(raw)) {
    throw new CliError('No server: pass --server <url> or set OTA_SERVER_URL.');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`The server URL is not a URL: ${JSON.stringify(raw)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(`The server URL must be http(s): ${JSON.stringify(raw)}.`);
  }
  return url.toString().replace(/\/+$/, '');
}

export function requireReleaseToken(env: Env): string {
  if (!present(env.OTA_RELEASE_TOKEN)) {
    throw new CliError('OTA_RELEASE_TOKEN is not set: it is the bearer token of the release endpoints.');
  }
  return env.OTA_RELEASE_TOKEN;
}

/**
 * Reads and checks everything environment-borne, in the order a person fixes them: the CI refusal
 * first, then the release switches (so a bad OTA_UPDATE_POLICY stops before any upload), then where
 * to publish.
 */
export function readPublishEnvironment(env: Env, flags: { server?: string } = {}): PublishEnvironment {
  if (!isCi(env)) throw new CliError(LOCAL_PUBLISH_REFUSAL);
  const updatePolicy = parseUpdatePolicy(env.OTA_UPDATE_POLICY);
  const allowNativeChange = parseAllowNativeChange(env.OTA_ALLOW_NATIVE_CHANGE);
  const serverUrl = parseServerUrl(flags.server ?? env.OTA_SERVER_URL);
  const token = requireReleaseToken(env);
  return { serverUrl, token, allowNativeChange, ...(updatePolicy === undefined ? {} : { updatePolicy }) };
}
