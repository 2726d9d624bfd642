import { chooseApp } from '../apps/app-choice.js';
import { FerryClient } from '../http/ferry-client.js';
import { type Env, parseServerUrl, requireReleaseToken } from '../publish/publish-environment.js';

/** Where a release-control command sends its requests: its --server and --app. */
export interface ServerTarget {
  /** --server; else OTA_SERVER_URL. */
  server?: string;
  /** --app; else OTA_APP; else none, and the server acts on the release token's own app. */
  app?: string;
}

/** A client for the release endpoints from --server (or OTA_SERVER_URL), --app (or OTA_APP) and OTA_RELEASE_TOKEN. */
export function releaseClient(env: Env, target: ServerTarget, fetchImpl?: typeof fetch): FerryClient {
  return new FerryClient({
    serverUrl: parseServerUrl(target.server ?? env.OTA_SERVER_URL),
    token: requireReleaseToken(env),
    app: chooseApp({ flag: target.app, env }),
    fetch: fetchImpl,
  });
}
