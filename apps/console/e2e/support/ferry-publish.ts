/**
 * `ferry publish` as a team runs it in CI, through the CLI's real entry point and publish command
 * (uploads, the release payload, the guard's answer): only what needs an Expo project is stood in
 * for: the export is a synthetic `expo export` folder (--dist), the app config and fingerprint are
 * given (FERRY_E2E_FINGERPRINT overrides the fingerprint; FERRY_E2E_PLATFORM=all publishes iOS and
 * Android as one release group; FERRY_E2E_CHANNEL picks the channel, production by default). Usage (OTA_SERVER_URL and OTA_RELEASE_TOKEN
 * in the environment):
 *   tsx ferry-publish.ts <runtimeVersion> <message> [--rollout 50 --halt-on-failure-rate 0.5 --halt-min-devices 1]
 * Prints what the CLI printed; exits with its exit code.
 */
import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import { publishCommand } from '../../../../packages/cli/src/commands/publish.js';
import { main } from '../../../../packages/cli/src/main.js';
import { asset, bundle, writeSyntheticExport } from '../../../../packages/cli/test/support/synthetic-export.js';

const [runtimeVersion, message, ...extra] = process.argv.slice(2);
if (!runtimeVersion || !message) throw new Error('usage: ferry-publish.ts <runtimeVersion> <message> [flags]');
// The same JavaScript-like text in every publish but for its last line: a track's releases differ
// as a small change does, so each gets a bundle patch from the one before that is small enough to offer.
const shared = Array.from(
  { length: 3_000 },
  (_, i) => `function f${i}(a${i % 7}){return a${i % 7}*${(i * 7919) % 1009}+${i};}`,
).join('\n');
const launch = Buffer.from(`${shared}\n// ${message} ${randomUUID()}\n`);
const platform = process.env.FERRY_E2E_PLATFORM ?? 'android';
const channel = process.env.FERRY_E2E_CHANNEL ?? 'production';
const made = writeSyntheticExport({
  android: { bundle: bundle('android', launch), assets: [asset('png')] },
  ...(platform === 'android' ? {} : { ios: { bundle: bundle('ios', launch), assets: [asset('png')] } }),
});
const program = new Command('ferry').exitOverride();
publishCommand(() => ({
  env: { ...process.env, CI: 'true', GITHUB_SHA: 'c0ffee1234567890', GITHUB_REF_NAME: 'main', GITHUB_ACTOR: 'ci-bot' },
  out: process.stdout,
  exporter: async () => {
    throw new Error('--dist is given: no export runs');
  },
  evaluateAppConfig: async () => ({
    name: 'Console e2e',
    slug: 'console-e2e',
    android: { runtimeVersion, package: 'com.example.console' },
    ios: { runtimeVersion, bundleIdentifier: 'com.example.console' },
    updates: { requestHeaders: { 'expo-channel-name': channel } },
  }),
  // The synthetic app embeds no certificate: publish warns and goes on, as for such an app.
  codeSigning: async () => undefined,
  fingerprint: async () => ({ hash: process.env.FERRY_E2E_FINGERPRINT ?? 'fp-console-e2e-android-0123456789abcdef' }),
  git: { commit: async () => 'c0ffee1234567890', branch: async () => 'main' },
}))(program);
const code = await main(
  [
    'node',
    'ferry',
    'publish',
    '--channel',
    channel,
    '--platform',
    platform,
    '--dist',
    made.dir,
    '--message',
    message,
    ...extra,
  ],
  program,
);
made.remove();
process.exit(code);
