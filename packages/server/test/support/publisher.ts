import { createHash } from 'node:crypto';
import type { ReleasePayloadInput } from '@ferry/contracts';
import type { TestServer } from './test-server.js';

export interface AssetFile {
  body: Buffer;
  contentType: string;
  fileExtension: string;
}

export const fileOf = (body: string | Buffer, contentType: string, fileExtension: string): AssetFile => ({
  body: typeof body === 'string' ? Buffer.from(body) : body,
  contentType,
  fileExtension,
});

export const hashOfBytes = (body: Buffer) => createHash('sha256').update(body).digest('base64url');
/** Metro's asset key: the md5 hex of the file. */
export const md5Of = (body: Buffer) => createHash('md5').update(body).digest('hex');

interface UploadStatus {
  hash: string;
  status: 'present' | 'missing';
  url: string;
  uploadUrl?: string;
  uploadHeaders?: Record<string, string>;
}

/** Asks the server which files are missing and uploads them, as `ferry publish` does. */
export async function uploadAssets(
  server: TestServer,
  track: { channel: string; runtimeVersion: string },
  files: AssetFile[],
): Promise<UploadStatus[]> {
  const response = await server.authed('/api/updates/assets', {
    method: 'POST',
    body: JSON.stringify({
      ...track,
      assets: files.map((f) => ({ hash: hashOfBytes(f.body), contentType: f.contentType, size: f.body.length })),
    }),
  });
  if (response.status !== 200) throw new Error(`asset check answered ${response.status}: ${await response.text()}`);
  const { assets } = (await response.json()) as { assets: UploadStatus[] };
  for (const status of assets) {
    if (status.status !== 'missing') continue;
    const file = files.find((f) => hashOfBytes(f.body) === status.hash)!;
    const put = await fetch(status.uploadUrl!, {
      method: 'PUT',
      headers: status.uploadHeaders,
      body: new Uint8Array(file.body),
    });
    if (!put.ok) throw new Error(`upload answered ${put.status}: ${await put.text()}`);
  }
  return assets;
}

/** Uploads a launch asset and assets, then registers the release; returns the release id. */
export async function publishRelease(
  server: TestServer,
  input: {
    channel: 'development' | 'production';
    platform: 'ios' | 'android';
    runtimeVersion: string;
    launch: AssetFile;
    assets?: AssetFile[];
    payload?: Partial<ReleasePayloadInput>;
  },
): Promise<{ id: string; urls: Map<string, string> }> {
  const files = [input.launch, ...(input.assets ?? [])];
  const statuses = await uploadAssets(server, { channel: input.channel, runtimeVersion: input.runtimeVersion }, files);
  const urls = new Map(statuses.map((s) => [s.hash, s.url]));
  const entry = (f: AssetFile) => ({
    url: urls.get(hashOfBytes(f.body))!,
    hash: hashOfBytes(f.body),
    key: md5Of(f.body),
    contentType: f.contentType,
    fileExtension: f.fileExtension,
  });
  const response = await server.authed('/api/updates/release', {
    method: 'POST',
    body: JSON.stringify({
      channel: input.channel,
      platform: input.platform,
      runtimeVersion: input.runtimeVersion,
      launchAsset: entry(input.launch),
      assets: (input.assets ?? []).map(entry),
      otaConfig: { name: 'Conformance', slug: 'conformance', scheme: 'conformance' },
      metadata: { commit: 'c0ffee', branch: 'main', actor: 'ci', runId: '1' },
      ...input.payload,
    }),
  });
  if (response.status !== 201) throw new Error(`release answered ${response.status}: ${await response.text()}`);
  const { release } = (await response.json()) as { release: { id: string } };
  return { id: release.id, urls };
}
