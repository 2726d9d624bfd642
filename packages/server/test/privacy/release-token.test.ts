import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { releasePayload, storeAssets } from '../support/releases.js';
import { startTestServer, TEST_RELEASE_TOKEN, type TestServer } from '../support/test-server.js';

describeEachEngine('the release token never reaches a log, an error body or the database', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { logLevel: 'trace' });
  });
  afterAll(async () => server?.close());

  it('holds across success, guard refusal, bad input and wrong tokens at trace level', async () => {
    const bodies: string[] = [];
    const send = async (path: string, init: RequestInit) => {
      const response = await fetch(server.url + path, init);
      bodies.push(await response.text());
    };
    const headers = { authorization: `Bearer ${TEST_RELEASE_TOKEN}`, 'content-type': 'application/json' };
    const post = (body: string, extra: Record<string, string> = {}) =>
      send('/api/updates/release', { method: 'POST', headers: { ...headers, ...extra }, body });
    await storeAssets(server, releasePayload());
    await post(JSON.stringify(releasePayload({ fingerprint: 'a' })));
    await post(JSON.stringify(releasePayload({ fingerprint: 'b' })));
    await post('{"broken');
    await post(JSON.stringify({ channel: TEST_RELEASE_TOKEN }));
    await post('{}', { authorization: 'Bearer wrong-token-wrong-token-wrong' });

    expect(server.logs.lines.length).toBeGreaterThan(0);
    expect(server.logs.text).not.toContain(TEST_RELEASE_TOKEN);
    expect(server.logs.text).not.toContain('wrong-token-wrong-token-wrong');
    for (const body of bodies) expect(body).not.toContain(TEST_RELEASE_TOKEN);

    const db = server.app.database.db;
    const rows = [
      ...(await db.selectFrom('releases').selectAll().execute()),
      ...(await db.selectFrom('audit_events').selectAll().execute()),
    ];
    expect(JSON.stringify(rows)).not.toContain(TEST_RELEASE_TOKEN);
  });
});
