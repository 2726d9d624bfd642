import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describeEachEngine('health, readiness and the API document', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  it('/healthz answers 200', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database', async () => {
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', database: engine });
  });

  it('/docs serves an OpenAPI document generated from the zod schemas', async () => {
    const ui = await fetch(`${server.url}/docs`, { redirect: 'follow' });
    expect(ui.status).toBe(200);
    const document = await (await fetch(`${server.url}/docs/json`)).json();
    expect(document.openapi).toMatch(/^3\./);
    const release = document.paths['/api/updates/release'].post;
    expect(release.requestBody.content['application/json'].schema.properties.updatePolicy).toBeDefined();
    expect(Object.keys(release.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409']));
    expect(document.paths['/api/updates/baseline-fingerprint'].get).toBeDefined();
  });

  it('unknown routes answer 404 with the error body', async () => {
    const response = await fetch(`${server.url}/api/nope`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('NOT_FOUND');
  });
});

describeEachEngine('readiness when the database is gone', (engine) => {
  it('/readyz answers 503 UNAVAILABLE', async () => {
    const server = await startTestServer(engine);
    try {
      await server.app.database.close();
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect((await response.json()).error.code).toBe('UNAVAILABLE');
    } finally {
      await server.app.close().catch(() => {});
      await server.database.drop();
    }
  });
});
