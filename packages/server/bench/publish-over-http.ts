/**
 * Publishing to a running Ferry through its HTTP API, the way `ferry publish` does it (POST
 * /api/updates/assets, PUT the missing bytes to the upload URLs it hands out, POST
 * /api/updates/release), so a benchmark holds whatever the server does inside; and a plain GET
 * that reads the whole body without decoding it. Only the contracts' types are used here.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type {
  AssetUploadCheckRequest,
  AssetUploadCheckResponse,
  ReleaseCreatedResponse,
  ReleasePayloadInput,
} from '@ferry/contracts';

export interface File {
  bytes: Buffer;
  /** The Expo Updates hash: unpadded base64url SHA-256. */
  hash: string;
  key: string;
  contentType: string;
  fileExtension: string;
}

export const fileOf = (bytes: Buffer, contentType: string, fileExtension: string): File => ({
  bytes,
  hash: createHash('sha256').update(bytes).digest('base64url'),
  key: createHash('md5').update(bytes).digest('hex'),
  contentType,
  fileExtension,
});

/** Metro-like JavaScript: small modules with random identifiers, about as compressible as a real bundle. */
export function javascriptBundle(bytes: number): File {
  const words = ['state', 'props', 'value', 'items', 'render', 'update', 'handler', 'options', 'style', 'theme'];
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
  const id = () => `${pick(words)}${Math.floor(Math.random() * 46_656).toString(36)}`;
  const chunks: string[] = [];
  for (let module = 0, size = 0; size < bytes; module++) {
    const [name, a, b, c] = [id(), id(), id(), id()];
    const chunk =
      `__d(function (g, r, i, a, m, e, d) {\n  function ${name}(${a}, ${b}) {\n` +
      `    const ${c} = ${a}.${pick(words)} ?? ${Math.floor(Math.random() * 1000)};\n` +
      `    if (${b} && ${b}.${pick(words)} > ${c}) return '${pick(words)}-' + ${a}.${pick(words)};\n` +
      `    return [${a}, ${b}].map((x) => x.${pick(words)}).filter(Boolean).join('${pick([' ', ', ', '/'])}');\n` +
      `  }\n  m.exports = { ${name}, ${pick(words)}: r(d[${module % 7}]) };\n}, ${module}, [${module + 1}, ${module + 2}]);\n`;
    chunks.push(chunk);
    size += chunk.length;
  }
  return fileOf(Buffer.from(chunks.join('')).subarray(0, bytes), 'application/javascript', '.bundle');
}

/** A publisher of one server, production channel, iOS. */
export class Publisher {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  private async post<T>(route: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.base}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${route} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  /** Asks which files the track still needs and PUTs those; answers each file's URL by hash. */
  async upload(runtimeVersion: string, files: File[]): Promise<Map<string, string>> {
    const request: AssetUploadCheckRequest = {
      channel: 'production',
      runtimeVersion,
      assets: files.map((file) => ({ hash: file.hash, size: file.bytes.length, contentType: file.contentType })),
    };
    const check = await this.post<AssetUploadCheckResponse>('/api/updates/assets', request);
    for (const status of check.assets.filter((asset) => asset.status === 'missing')) {
      const file = files.find((candidate) => candidate.hash === status.hash)!;
      const headers = { 'content-type': file.contentType, ...status.uploadHeaders };
      const put = await fetch(status.uploadUrl!, { method: 'PUT', headers, body: Uint8Array.from(file.bytes) });
      const text = await put.text();
      if (!put.ok) throw new Error(`PUT of an asset answered ${put.status}: ${text.slice(0, 300)}`);
    }
    return new Map(check.assets.map((asset) => [asset.hash, asset.url]));
  }

  /** A new release (a new commit) naming files[0] as the launch asset; answers the release id. */
  async publish(
    runtimeVersion: string,
    files: File[],
    urls: Map<string, string>,
    commit: string,
    extra: Partial<ReleasePayloadInput> = {},
  ): Promise<string> {
    const asset = ({ hash, key, contentType, fileExtension }: File) => {
      const url = urls.get(hash);
      if (!url) throw new Error(`no URL for asset ${hash}: upload it first`);
      return { url, hash, key, contentType, fileExtension };
    };
    const payload: ReleasePayloadInput = {
      channel: 'production',
      platform: 'ios',
      runtimeVersion,
      launchAsset: asset(files[0]!),
      assets: files.slice(1).map(asset),
      otaConfig: { name: 'Bench', slug: 'bench', version: runtimeVersion },
      // Constant per track: the native-change guard lets every release of it through.
      fingerprint: 'bench-fingerprint',
      metadata: { commit, actor: 'bench' },
      ...extra,
    };
    return (await this.post<ReleaseCreatedResponse>('/api/updates/release', payload)).release.id;
  }
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** As sent: not decompressed. */
  body: Buffer;
  /** From sending the request to the last byte of the body. */
  ms: number;
}

/** One GET on a connection of its own. */
export function get(url: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const ms = performance.now() - started;
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), ms });
        });
      })
      .on('error', reject);
  });
}
