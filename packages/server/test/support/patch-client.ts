import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { ReleaseListResponse } from '@ferry/contracts';
import type { TestServer } from './test-server.js';

/** Debian's bspatch (package bsdiff): an implementation independent of the server's, as a device's is. */
export function bspatch(base: Buffer, patch: Buffer): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bspatch-'));
  try {
    fs.writeFileSync(path.join(dir, 'base'), base);
    fs.writeFileSync(path.join(dir, 'patch'), patch);
    execFileSync('bspatch', [path.join(dir, 'base'), path.join(dir, 'out'), path.join(dir, 'patch')]);
    return fs.readFileSync(path.join(dir, 'out'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** As sent (still compressed when content-encoding says so). */
  body: Buffer;
}

/** A GET over node:http, which leaves the body as sent (fetch would decompress it). */
export const rawGet = (url: string, headers: Record<string, string>): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });

/** The headers expo-updates 55+ sends on its launch-asset request with patches on (FileDownloader.kt). */
export const patchRequestHeaders = (
  currentUpdateId: string,
  requestedUpdateId: string,
  platform: 'ios' | 'android' = 'ios',
): Record<string, string> => ({
  accept: '*/*',
  'a-im': 'bsdiff',
  'expo-current-update-id': currentUpdateId,
  'expo-requested-update-id': requestedUpdateId,
  'expo-platform': platform,
  'expo-protocol-version': '1',
  'expo-api-version': '1',
});

export type LaunchDownload =
  | { kind: 'patch'; answer: RawAnswer; bytes: Buffer }
  | { kind: 'full'; answer: RawAnswer; bytes: Buffer };

/**
 * Downloads a launch bundle as expo-updates does with patches on: a 226 (or `IM: bsdiff`) answer
 * must name the device's own update in `expo-base-update-id`, and is applied to the bundle it runs
 * (here with Debian's bspatch); anything else is the full bundle. Either way the result must hash to
 * what the manifest says, or this throws, as the client then fails the download.
 */
export async function downloadLaunchAssetLikeExpo(
  url: string,
  device: { currentUpdateId: string; requestedUpdateId: string; runningBundle: Buffer; platform?: 'ios' | 'android' },
  expectedHash: string,
): Promise<LaunchDownload> {
  const answer = await rawGet(
    url,
    patchRequestHeaders(device.currentUpdateId, device.requestedUpdateId, device.platform),
  );
  const isPatch =
    answer.status === 226 ||
    String(answer.headers.im ?? '')
      .split(',')
      .some((item) => item.trim().toLowerCase() === 'bsdiff');
  let download: LaunchDownload;
  if (isPatch) {
    if (String(answer.headers['expo-base-update-id'] ?? '').toLowerCase() !== device.currentUpdateId.toLowerCase()) {
      throw new Error('a patch answer must name the device’s current update in expo-base-update-id');
    }
    download = { kind: 'patch', answer, bytes: bspatch(device.runningBundle, answer.body) };
  } else {
    if (answer.status !== 200) throw new Error(`the launch asset answered ${answer.status}`);
    download = { kind: 'full', answer, bytes: answer.body };
  }
  const hash = createHash('sha256').update(download.bytes).digest('base64url');
  if (hash !== expectedHash)
    throw new Error(`the downloaded bundle hashes to ${hash}, the manifest says ${expectedHash}`);
  return download;
}

/** JavaScript-like text, as a bundle compresses; different on every call. */
export function bundleText(lines: number): string {
  const words = ['function', 'return', 'const', 'props', 'useState', 'render', 'children', 'value', 'React'];
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      `${words[i % words.length]} _${randomBytes(3).toString('hex')}(a${i % 97}){return ${words[(i * 7) % words.length]}.x${i % 13}+${i};}`,
    );
  }
  return `${out.join('\n')}\n`;
}

/**
 * Waits until the release's launch bundle has patches and none is pending (the listing shows them).
 * With `timeoutMs` it throws past that, naming what it last saw: the end-to-end scripts have no
 * test runner's timeout to stop a wait for a patch that is never queued or never made.
 */
export async function settledPatches(
  server: Pick<TestServer, 'authed'>,
  track: Record<string, string>,
  releaseId: string,
  timeoutMs = Number.POSITIVE_INFINITY,
) {
  const deadline = Date.now() + timeoutMs;
  let release: ReleaseListResponse['releases'][number] | undefined;
  for (let attempt = 0; ; attempt++) {
    const response = await server.authed(`/api/updates/releases?${new URLSearchParams(track)}`);
    // Quick at first, then once a second: a wait of many seconds (a loaded machine) stays within the
    // listing's rate limit (RELEASE_RATE_LIMIT_PER_MINUTE, 120 by default); should it still be
    // reached, it waits as the server asks (Retry-After), as a client should.
    let waitMs = Math.min(1000, 50 * 2 ** attempt);
    if (response.status === 429) waitMs = Number(response.headers.get('retry-after') ?? 1) * 1000;
    else {
      if (!response.ok) throw new Error(`listing releases answered ${response.status}: ${await response.text()}`);
      const { releases } = (await response.json()) as ReleaseListResponse;
      release = releases.find((candidate) => candidate.id === releaseId);
      if (release && release.patches.length > 0 && release.patches.every((patch) => patch.state !== 'pending')) {
        return release.patches;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the patches of release ${releaseId} did not settle within ${timeoutMs} ms: ${JSON.stringify(release?.patches ?? 'release not listed')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
