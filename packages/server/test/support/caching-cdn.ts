import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A CDN edge as the common ones behave with an origin that compresses (CloudFront with a cache
 * policy that normalises Accept-Encoding, Fastly, Cloudflare honouring `vary`): it normalises the
 * device's accept-encoding to br, gzip or nothing, keys its cache on path and that, forwards a miss
 * to the origin with the normalised header, and never compresses anything itself.
 */
export interface CachingCdn {
  url: string;
  /** Requests that reached the origin, as `<path> <normalised encoding>`. */
  originRequests: string[];
  setOrigin(origin: string): void;
  close(): Promise<void>;
}

interface Cached {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const normalise = (acceptEncoding: string | undefined): string =>
  /\bbr\b/.test(acceptEncoding ?? '') ? 'br' : /\bgzip\b/.test(acceptEncoding ?? '') ? 'gzip' : '';

export async function startCachingCdn(): Promise<CachingCdn> {
  let origin = '';
  const cache = new Map<string, Promise<Cached>>();
  const originRequests: string[] = [];
  const fetchOrigin = (path: string, encoding: string) =>
    new Promise<Cached>((resolve, reject) => {
      originRequests.push(`${path} ${encoding}`);
      http
        .get(`${origin}${path}`, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          response.on('error', reject);
        })
        .on('error', reject);
    });
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const encoding = normalise(request.headers['accept-encoding']);
    const key = `${path}\n${encoding}`;
    let entry = cache.get(key);
    if (!entry) {
      entry = fetchOrigin(path, encoding);
      cache.set(key, entry);
    }
    entry.then(
      (cached) => {
        const headers = { ...cached.headers };
        delete headers.connection;
        delete headers['keep-alive'];
        delete headers['transfer-encoding'];
        response.writeHead(cached.status, { ...headers, 'content-length': String(cached.body.length) });
        response.end(cached.body);
      },
      () => {
        response.writeHead(502).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    originRequests,
    setOrigin: (value) => {
      origin = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
