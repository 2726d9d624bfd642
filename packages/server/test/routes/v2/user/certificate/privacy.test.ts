import fs from 'node:fs';
import type { CertificateDocument, CertificateVendor } from '@ferry/contracts';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  bodyFor,
  type CertificateTestServer,
  DOCUMENTS,
  newUser,
  PERSON,
  startCertificateServer,
  TEST_CERT_AES_KEY,
  TEST_JWT_SECRET,
  TEST_OPERATOR_TOKEN,
  unwrap,
  VENDORS,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';

// Whole flows with debug logging; afterwards no identity number (plain, client-encrypted or
// vendor-encrypted), token or key may be found in the logs, the database or any error body.
describeEachEngine('privacy of identity numbers, tokens and keys', (engine) => {
  let server: CertificateTestServer;
  const sentPayloads: string[] = [];
  const tokens: string[] = [];
  const errorBodies: string[] = [];

  beforeAll(async () => {
    server = await startCertificateServer(engine, { logLevel: 'debug', env: { VENDOR_TIMEOUT_MS: '400' } });
  });
  afterAll(async () => server?.close());

  const post = async (document: CertificateDocument, body: Record<string, unknown>, token: string) => {
    for (const field of ['identityEnc', 'rrn2Enc']) if (typeof body[field] === 'string') sentPayloads.push(body[field]);
    const response = await server.post(document, body, token);
    if (response.status >= 400) errorBodies.push(await response.clone().text());
    return response;
  };
  const control = (vendor: CertificateVendor, path: string, body?: unknown) =>
    fetch(`${server.simulators[vendor].url}/_control${path}`, {
      method: 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Everything in the database, as text: the SQLite file (and its WAL), or a dump of every table. */
  const databaseText = async (): Promise<string> => {
    if (engine === 'sqlite') {
      const file = server.database.location;
      return [file, `${file}-wal`]
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f).toString('latin1'))
        .join('\n');
    }
    const client = new pg.Client({ connectionString: server.database.location });
    await client.connect();
    try {
      const tables = await client.query(
        "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
      );
      const dumps: string[] = [];
      for (const { table_name } of tables.rows) {
        const rows = await client.query(`select row_to_json(t)::text as row from "${table_name}" t`);
        dumps.push(...rows.rows.map((r) => r.row as string));
      }
      return dumps.join('\n');
    } finally {
      await client.end();
    }
  };

  it('runs complete flows, failures included, with debug logging', async () => {
    for (const vendor of VENDORS) {
      for (const document of DOCUMENTS) {
        const token = await server.tokenFor(newUser());
        tokens.push(token);
        const first = await unwrap(document, await post(document, bodyFor(document, { vendor }), token));
        const second = { ...bodyFor(document, { vendor }), stepData: first.stepData, twoWayInfo: first.twoWayInfo };
        expect((await post(document, second, token)).status).toBe(409);
        await control(vendor, '/sessions/latest/approve');
        expect(
          (
            await post(
              document,
              { ...second, ...bodyFor(document, { vendor }), stepData: first.stepData, twoWayInfo: first.twoWayInfo },
              token,
            )
          ).status,
        ).toBe(200);
      }
      // Failures on the way: the vendor rejects, the vendor breaks, the vendor hangs, bad input.
      const token = await server.tokenFor(newUser());
      tokens.push(token);
      const document = 'resident-certificate';
      const first = await unwrap(document, await post(document, bodyFor(document, { vendor }), token));
      await control(vendor, '/sessions/latest/reject');
      const second = { ...bodyFor(document, { vendor }), stepData: first.stepData, twoWayInfo: first.twoWayInfo };
      expect((await post(document, second, token)).status).toBe(422);
      await control(vendor, '/faults', { fault: { kind: 'garbled' } });
      expect((await post(document, bodyFor(document, { vendor }), token)).status).toBe(502);
      await control(vendor, '/faults', { fault: { kind: 'hang' } });
      expect((await post(document, bodyFor(document, { vendor }), token)).status).toBe(504);
      expect(
        (await post(document, { ...bodyFor(document, { vendor }), birthDate: `${PERSON.front}1` }, token)).status,
      ).toBe(400);
      expect(
        (
          await post(
            document,
            { ...bodyFor(document, { vendor }), identityEnc: Buffer.from(PERSON.back.repeat(5)).toString('base64') },
            token,
          )
        ).status,
      ).toBe(400);
      expect((await post(document, bodyFor(document, { vendor }), 'Bearer-garbage')).status).toBe(401);
    }
  });

  it('finds none of them in logs, database or error bodies', async () => {
    const vendorEncrypted = [
      ...server.simulators.VENDOR_A.observedCiphertexts,
      ...server.simulators.VENDOR_B.observedCiphertexts,
    ];
    expect(sentPayloads.length).toBeGreaterThan(20);
    expect(vendorEncrypted.length).toBeGreaterThan(20);
    const secrets: Array<[string, string]> = [
      ['the whole resident number', `${PERSON.front}${PERSON.back}`],
      ['the back part', PERSON.back],
      ['the birth date part', PERSON.front],
      ...sentPayloads.map((p): [string, string] => ['a client-encrypted payload', p]),
      ...vendorEncrypted.map((p): [string, string] => ['a vendor-encrypted identity', p]),
      ...tokens.map((t): [string, string] => ['a user token', t]),
      ...tokens.map((t): [string, string] => ['a user token signature', t.split('.')[2] ?? t]),
      ['the AES key', TEST_CERT_AES_KEY.toString('base64')],
      ['the AES key (hex)', TEST_CERT_AES_KEY.toString('hex')],
      ['the JWT secret', TEST_JWT_SECRET],
      ['the operator token', TEST_OPERATOR_TOKEN],
      ['the VENDOR_A key', server.simulators.VENDOR_A.account.hkey],
      ['the VENDOR_A encryption key', server.simulators.VENDOR_A.account.ekey.toString('utf8')],
      ['the VENDOR_B client secret', server.simulators.VENDOR_B.account.clientSecret],
    ];
    const logs = server.logs.text;
    expect(logs).toContain('"level":20'); // debug lines were written
    expect(logs).toContain('vendor call failed');
    const places: Array<[string, string]> = [
      ['logs', logs],
      ['database', await databaseText()],
      ['error bodies', errorBodies.join('\n')],
    ];
    for (const [place, text] of places) {
      for (const [what, secret] of secrets) {
        expect(text.includes(secret), `${what} found in ${place}`).toBe(false);
      }
    }
  });
});
