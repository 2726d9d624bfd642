import { FerryClient } from '../http/ferry-client.js';
import { type Env, parseServerUrl, requireReleaseToken } from '../publish/publish-environment.js';

/** A client for the release endpoints from --server (or OTA_SERVER_URL) and OTA_RELEASE_TOKEN. */
export function releaseClient(env: Env, server: string | undefined, fetchImpl?: typeof fetch): FerryClient {
  return new FerryClient({
    serverUrl: parseServerUrl(server ?? env.OTA_SERVER_URL),
    token: requireReleaseToken(env),
    fetch: fetchImpl,
  });
}
