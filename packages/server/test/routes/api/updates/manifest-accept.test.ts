import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { checkManifestLikeExpo, clientHeaders, type ManifestTrack } from '../../../support/expo-client.js';
import { fileOf, publishRelease } from '../../../support/publisher.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../../../support/test-server.js';

/**
 * Issue 34, item 9: the Accept header the protocol recommends lists the JSON structures first, at
 * the same weight as multipart. Only multipart can carry a directive, so a pending roll back to
 * embedded must reach such a client as a multipart directive, not as 406.
 */
const SPEC_ACCEPT = 'application/expo+json, application/json, multipart/mixed';
const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
let tracks = 0;
const freshTrack = () =>
  ({ channel: 'production', platform: 'ios', runtimeVersion: `accept-${Date.now()}-${tracks++}` }) as const;
const launch = () => fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');

describeEachEngine('manifest Accept negotiation', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const manifest = (track: ManifestTrack, accept: string) =>
    fetch(`${server.url}/api/updates/manifest`, { headers: { ...clientHeaders('expo', track), accept } });
  const likeExpo = async (response: Response) =>
    checkManifestLikeExpo(
      'expo',
      { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) },
      trust,
    );

  it('with a roll back to embedded pending, the spec client’s Accept gets the signed directive in multipart', async () => {
    const track = freshTrack();
    const { id } = await publishRelease(server, { ...track, launch: launch() });
    const directive = await server.authed('/api/updates/directives', {
      method: 'POST',
      body: JSON.stringify({ ...track, type: 'rollBackToEmbedded' }),
    });
    expect(directive.status).toBe(201);
    const device = { ...track, currentUpdateId: id, embeddedUpdateId: randomUUID() };

    const response = await manifest(device, SPEC_ACCEPT);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const { createdAt } = (await directive.json()).directive as { createdAt: string };
    expect(await likeExpo(response)).toMatchObject({ kind: 'roll-back-to-embedded', commitTime: createdAt });

    // A client that asks for JSON only, or weighs it higher, still cannot get a directive: 406.
    for (const accept of ['application/expo+json', 'application/json, multipart/mixed;q=0.5']) {
      const json = await manifest(device, accept);
      expect(json.status, accept).toBe(406);
      expect((await json.json()).error.code).toBe('NOT_ACCEPTABLE');
    }
  });

  it('an update reaches the same client as a signed multipart manifest; JSON when JSON is preferred', async () => {
    const track = freshTrack();
    const { id } = await publishRelease(server, { ...track, launch: launch() });
    const multipart = await likeExpo(await manifest(track, SPEC_ACCEPT));
    expect(multipart.kind === 'update' && multipart.manifest.id).toBe(id);

    const json = await manifest(track, 'application/expo+json, multipart/mixed;q=0.9');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/expo\+json/);
    expect((await json.json()).id).toBe(id);
  });
});
