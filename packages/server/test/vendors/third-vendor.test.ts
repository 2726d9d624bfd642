import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILT_IN_VENDORS } from '../../src/vendors/built-in-vendors.js';
import { composeVendors } from '../../src/vendors/vendor-registry.js';
import {
  bodyFor,
  type CertificateTestServer,
  DOCUMENTS,
  newUser,
  startCertificateServer,
  unwrap,
} from '../support/certificates.js';
import { describeEachEngine } from '../support/engines.js';
import { sampleSum, scrape } from '../support/prometheus.js';
import { testVendor } from './third-vendor/definition.js';
import { TEST_VENDOR } from './third-vendor/wire.js';

const METRICS_TOKEN = `test-metrics-token-${randomBytes(8).toString('hex')}`;

/**
 * Adding a vendor is one folder named in a registry (issue 37, item 3): a vendor defined only in
 * this test suite (third-vendor/), composed with the built-in ones, runs the whole two-step flow
 * over HTTP through the real routes, with its own simulator, on both engines. Nothing outside its
 * folder names it: configuration, the API's schemas, storage and metrics take it from the registry.
 */
describeEachEngine('a third vendor, defined only in the test suite', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, {
      registry: composeVendors([...BUILT_IN_VENDORS.definitions, testVendor]),
      env: { METRICS_TOKEN },
    });
  });
  afterAll(async () => server?.close());

  const approve = async () => {
    const simulator = server.app.certificates.simulators[TEST_VENDOR];
    const response = await fetch(`${simulator?.url}/_control/sessions/latest/approve`, { method: 'POST' });
    expect(response.status).toBe(200);
  };

  it.each(DOCUMENTS)('%s: assignment, first call, approval, second call, PDF', async (document) => {
    const userId = newUser();
    const token = await server.tokenFor(userId);
    const assignmentId = await server.createAssignment(userId, TEST_VENDOR);
    const assignment = await fetch(`${server.url}/v2/user/assignments/${assignmentId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(assignment.status).toBe(200);
    expect((await assignment.json()).assignment).toMatchObject({ id: assignmentId, certificateVendor: TEST_VENDOR });

    const body = { ...bodyFor(document), vendor: TEST_VENDOR, assignmentId };
    const firstResponse = await server.post(document, body, token);
    expect(firstResponse.status).toBe(200);
    const first = await unwrap(document, firstResponse);
    // Its state travels in the second-call field its definition names.
    expect(first).toEqual({ preSignedUrl: null, stepData: expect.any(String), twoWayInfo: null });

    const second = { ...body, stepData: first.stepData };
    const early = await server.post(document, second, token);
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe('AUTH_PENDING');

    await approve();
    const issuedResponse = await server.post(document, second, token);
    expect(issuedResponse.status).toBe(200);
    const issued = await unwrap(document, issuedResponse);
    expect(issued).toEqual({ preSignedUrl: expect.stringMatching(/^http/), stepData: null, twoWayInfo: null });
    const pdf = await fetch(issued.preSignedUrl as string);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');

    // A repeated second call answers the same document again, as for every vendor.
    expect((await server.post(document, second, token)).status).toBe(200);
  });

  it("refuses the other vendors' second-call field, as the API's schemas are built from the registry", async () => {
    const token = await server.tokenFor(newUser());
    const twoWayInfo = { jobIndex: 0, threadIndex: 0, jti: 'jti', twoWayTimestamp: 1 };
    const response = await server.post(
      'resident-certificate',
      { ...bodyFor('resident-certificate'), vendor: TEST_VENDOR, twoWayInfo },
      token,
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('twoWayInfo is only used with VENDOR_B');
  });

  it('is named in the OpenAPI document and counted in metrics under its label', async () => {
    const openapi = JSON.stringify(await (await fetch(`${server.url}/docs/json`)).json());
    expect(openapi).toContain(`"${TEST_VENDOR}"`);
    const token = await server.tokenFor(newUser());
    const started = await server.post(
      'resident-abstract',
      { ...bodyFor('resident-abstract'), vendor: TEST_VENDOR },
      token,
    );
    expect(started.status).toBe(200);
    const exposition = await scrape(`${server.url}/metrics`, METRICS_TOKEN);
    const flows = { document: 'resident-abstract', vendor: TEST_VENDOR, outcome: 'started' };
    expect(sampleSum(exposition, 'ferry_certificate_flows_total', flows)).toBeGreaterThanOrEqual(1);
    const exchanges = { vendor: TEST_VENDOR, operation: 'start-authentication' };
    expect(sampleSum(exposition, 'ferry_vendor_request_duration_seconds_count', exchanges)).toBeGreaterThanOrEqual(1);
  });
});

it('a server without it refuses it: the vendor is not in its registry', async () => {
  const server = await startCertificateServer('sqlite');
  try {
    const response = await server.post(
      'resident-certificate',
      { ...bodyFor('resident-certificate'), vendor: TEST_VENDOR },
      await server.tokenFor(newUser()),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
  } finally {
    await server.close();
  }
});
