import { appManifestPath, DEFAULT_APP, LEGACY_MANIFEST_PATH } from '@ferry/contracts';
import { chooseApp } from '../apps/app-choice.js';
import { CliError } from '../cli-error.js';
import { FerryClient } from '../http/ferry-client.js';
import type { RetryPolicy } from '../http/retry.js';
import { parseServerUrl } from '../publish/publish-environment.js';
import {
  type AppFacts,
  type CheckResult,
  checkCertificate,
  checkConfig,
  checkExport,
  checkExpoUpdates,
  checkManifests,
  checkToken,
  type DoctorContext,
} from './doctor-checks.js';

export interface DoctorRequest {
  /** --server; else OTA_SERVER_URL; else the server the app config's updates URL names. */
  server?: string;
  /** --app; else OTA_APP; else the app the config's updates URL names. */
  app?: string;
  distDir: string;
  /** Whether --dist was given (then a missing export fails instead of being skipped). */
  distGiven: boolean;
}

/**
 * Where updatesConfig() of @ferry/expo/config points the builds, under the server's API address:
 * an app's manifest path, or the default app's path from before there were apps.
 */
const MANIFEST_PATH = new RegExp(`(?:${LEGACY_MANIFEST_PATH}|${appManifestPath('[^/]+')})$`);

const MARKS = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

/** One check as a report line, and its fix under it. */
export function renderResult(result: CheckResult): string {
  const line = `[${MARKS[result.status]}] ${result.check}: ${result.detail}`;
  return result.fix && result.status !== 'ok' ? `${line}\n       fix: ${result.fix}` : line;
}

/** The server the doctor talks to: the one named, else the one the builds ask for updates. */
function serverOf(request: DoctorRequest, context: DoctorContext, facts: AppFacts): string | undefined {
  const named = request.server ?? (context.env.OTA_SERVER_URL || undefined);
  if (named !== undefined) return parseServerUrl(named);
  if (!facts.updatesUrl) return undefined;
  const url = new URL(facts.updatesUrl);
  url.search = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(MANIFEST_PATH, '');
  return url.toString().replace(/\/+$/, '');
}

/**
 * `ferry doctor`: checks an app and its server together, in the order a team fixes them, and says
 * what to do about each problem. Exits 1 when a check fails; a warning or a skipped check does not.
 */
export async function runDoctor(
  request: DoctorRequest,
  context: DoctorContext,
  output: { out: { write(text: string): unknown }; retry?: RetryPolicy },
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    output.out.write(`${renderResult(result)}\n`);
  };
  const facts: AppFacts = {};
  report(await checkConfig(context, facts));
  report(checkExpoUpdates(context));
  const server = serverOf(request, context, facts);
  // Before any request: --app against the app the builds ask for updates is refused here.
  const app = chooseApp({ flag: request.app, env: context.env, updatesUrl: facts.updatesUrl });
  const client = server
    ? new FerryClient({
        serverUrl: server,
        token: context.env.OTA_RELEASE_TOKEN ?? '',
        app,
        fetch: context.fetch,
        retry: output.retry,
      })
    : undefined;
  // The app is named only where there are apps: a team of the default app sees what it always saw.
  const ofApp = app === undefined || app === DEFAULT_APP ? '' : `, app ${app}`;
  if (server) output.out.write(`       server: ${server}${ofApp}\n`);
  report(await checkCertificate(context, facts, client));
  for (const result of await checkManifests(context, facts, server)) report(result);
  report(await checkToken(context, client));
  report(await checkExport(context, request.distDir, request.distGiven));

  const failed = results.filter((result) => result.status === 'fail').length;
  const warned = results.filter((result) => result.status === 'warn').length;
  if (failed > 0) {
    throw new CliError(`doctor: ${failed} problem(s) to fix${warned > 0 ? `, ${warned} warning(s)` : ''}.`);
  }
  output.out.write(`doctor: ready to publish${warned > 0 ? ` (${warned} warning(s))` : ''}.\n`);
  return results;
}
