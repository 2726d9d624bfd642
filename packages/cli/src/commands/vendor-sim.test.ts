import { createPublicKey, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startVendorSimulator } from './vendor-sim.js';

describe('ferry vendor-sim', () => {
  let running: RunningSimulator | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('a: answers in the stepData style and prints the variables that point a server at it', async () => {
    running = await startVendorSimulator('a', { port: 0, host: '127.0.0.1', approvalDelay: 'never' }, {});
    expect(Object.keys(running.env)).toEqual(['VENDOR_A_URL', 'VENDOR_A_USER_ID', 'VENDOR_A_HKEY', 'VENDOR_A_EKEY']);
    expect(Buffer.byteLength(running.env.VENDOR_A_EKEY ?? '')).toBe(16);
    const response = await fetch(`${running.url}/in0005000216`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-id': 'wrong', hkey: 'wrong' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect((await response.json()).common).toMatchObject({ errYn: 'Y', errCd: 'HDM006' });
    expect((await (await fetch(`${running.url}/_control/sessions`)).json()).sessions).toEqual([]);
  });

  it('b: issues OAuth tokens to the printed credentials and takes account values from the environment', async () => {
    const clientSecret = randomBytes(12).toString('hex');
    running = await startVendorSimulator(
      'b',
      { port: 0, host: '127.0.0.1', approvalDelay: 1000, ttl: 60 },
      { VENDOR_B_CLIENT_ID: 'my-client', VENDOR_B_CLIENT_SECRET: clientSecret },
    );
    expect(running.env).toMatchObject({ VENDOR_B_URL: running.url, VENDOR_B_CLIENT_ID: 'my-client' });
    const key = createPublicKey({
      key: Buffer.from(running.env.VENDOR_B_PUBLIC_KEY ?? '', 'base64'),
      format: 'der',
      type: 'spki',
    });
    expect(key.asymmetricKeyType).toBe('rsa');
    const token = await fetch(`${running.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`my-client:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=read',
    });
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
  });
});
