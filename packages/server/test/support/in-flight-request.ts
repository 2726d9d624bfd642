import http from 'node:http';

/**
 * A request whose body is still arriving: sends the first `sentFirst` bytes of `body` and leaves
 * the rest for `finish()`. For tests of what a shutdown does to a request in flight.
 *
 * With `announce`, the request carries `Expect: 100-continue`, and `received` resolves when the
 * server answers 100 Continue: it has read the request head and is handling the request. A test
 * waits on that instead of sleeping and hoping the server got that far.
 */
export function inFlightRequest(
  options: http.RequestOptions,
  body: Buffer,
  sentFirst: number,
  { announce = false }: { announce?: boolean } = {},
): { status: Promise<number>; finish: () => void; received: Promise<void> } {
  const request = http.request({
    ...options,
    headers: { ...options.headers, 'content-length': body.length, ...(announce ? { expect: '100-continue' } : {}) },
  });
  const status = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
  const received = new Promise<void>((resolve, reject) => {
    if (!announce) {
      reject(new Error('inFlightRequest: `received` needs { announce: true }'));
      return;
    }
    request.once('continue', () => resolve());
    // A final answer or an error before any 100 Continue: the server did not take the request.
    status.then(
      (code) => reject(new Error(`the server answered ${code} before 100 Continue`)),
      (error: unknown) => reject(error),
    );
  });
  received.catch(() => {});
  request.write(body.subarray(0, sentFirst));
  return { status, finish: () => request.end(body.subarray(sentFirst)), received };
}
