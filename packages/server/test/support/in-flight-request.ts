import http from 'node:http';

/**
 * A request whose body is still arriving: sends the first `sentFirst` bytes of `body` and leaves
 * the rest for `finish()`. For tests of what a shutdown does to a request in flight.
 */
export function inFlightRequest(
  options: http.RequestOptions,
  body: Buffer,
  sentFirst: number,
): { status: Promise<number>; finish: () => void } {
  const request = http.request({ ...options, headers: { ...options.headers, 'content-length': body.length } });
  const status = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
  request.write(body.subarray(0, sentFirst));
  return { status, finish: () => request.end(body.subarray(sentFirst)) };
}
