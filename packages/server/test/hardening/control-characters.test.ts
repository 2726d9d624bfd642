import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { releasePayload, servedAt, storeAssets } from '../support/releases.js';
import { rowCounts } from '../support/row-counts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { errorBodyProblem, exchange, percentEncode, type RawRequest, type RawResponse } from './hostile-http.js';

/**
 * A control character in any text field of the OTA area is a 400 naming the field, on both
 * engines: never a 500 (PostgreSQL refuses NUL in text and JSONB) and never stored (SQLite would
 * keep it). Lone surrogates, which JSON can carry and PostgreSQL refuses too, are tried as well.
 */
const BODY_CHARACTERS = { NUL: '\u0000', SOH: '\u0001', 'lone surrogate': '\ud800' } as const;
/** Query strings and headers carry bytes: a lone surrogate cannot be sent there. */
const BYTE_CHARACTERS = { NUL: '\u0000', SOH: '\u0001' } as const;

const HASH = 'A'.repeat(43);
const TRACK = { channel: 'production', platform: 'ios', runtimeVersion: '5.0.0(5)' } as const;

type Json = Record<string, unknown>;

/** Puts `text` in the middle of the value at `path` (or makes it a key, for `{key}`). */
function withText(base: Json, path: string, text: string): Json {
  const segments = path.split('.');
  const copy = structuredClone(base);
  let node: Record<string, unknown> | unknown[] = copy;
  for (const segment of segments.slice(0, -1)) {
    const key = Array.isArray(node) ? Number(segment) : segment;
    node = (node as Record<string | number, unknown>)[key] as Record<string, unknown>;
  }
  const last = segments.at(-1)!;
  if (last === '{key}') {
    (node as Record<string, unknown>)[`a${text}b`] = 'x';
    return copy;
  }
  const record = node as Record<string, unknown>;
  const current = record[last];
  record[last] =
    typeof current === 'string' && current.length > 1
      ? `${current.slice(0, 1)}${text}${current.slice(1)}`
      : `a${text}b`;
  return copy;
}

/** The path details.fields names: keys appear escaped. */
const reportedPath = (context: string, path: string, text: string) =>
  `${context}.${path.replace('{key}', `a${JSON.stringify(text).slice(1, -1)}b`)}`;

const RELEASE_FIELDS = [
  'channel',
  'platform',
  'runtimeVersion',
  'launchAsset.url',
  'launchAsset.hash',
  'launchAsset.key',
  'launchAsset.contentType',
  'launchAsset.fileExtension',
  'assets.0.url',
  'assets.0.hash',
  'assets.0.key',
  'assets.0.contentType',
  'assets.0.fileExtension',
  'otaConfig.name',
  'otaConfig.extra.eas.projectId',
  'otaConfig.{key}',
  'otaConfig.extra.{key}',
  'fingerprint',
  'metadata.commit',
  'metadata.branch',
  'metadata.actor',
  'metadata.runId',
];
const ASSET_CHECK_FIELDS = ['channel', 'runtimeVersion', 'assets.0.hash', 'assets.0.contentType'];
const ROLLBACK_FIELDS = ['channel', 'platform', 'runtimeVersion', 'to', 'actor', 'runId'];
const BASELINE_QUERY = ['channel', 'platform', 'runtimeVersion'];
const RELEASES_QUERY = ['channel', 'platform', 'runtimeVersion', 'limit'];
const MANIFEST_HEADERS = [
  'platform',
  'runtime-version',
  'channel-name',
  'current-update-id',
  'embedded-update-id',
  'protocol-version',
];

describeEachEngine('control characters in OTA requests', (engine) => {
  let server: TestServer;
  let releaseBase: Json;
  let rollbackBase: Json;
  const counts = () => rowCounts(server.app.database.db, ['releases', 'audit_events']);

  beforeAll(async () => {
    server = await startTestServer(engine);
    // Every optional field set, so each can carry the character.
    const payload = releasePayload({ ...TRACK });
    releaseBase = {
      ...payload,
      launchAsset: {
        ...payload.launchAsset,
        key: 'bundle',
        contentType: 'application/javascript',
        fileExtension: '.js',
      },
      assets: [{ ...payload.assets![0]!, key: 'logo', contentType: 'image/png', fileExtension: '.png' }],
      otaConfig: { name: 'app', slug: 'app', extra: { eas: { projectId: 'p1' } } },
    };
    await storeAssets(server, releaseBase);
    // Raw requests below go around the test client: list the assets at the URLs this server serves them at.
    releaseBase = JSON.parse(servedAt(JSON.stringify(releaseBase), `${server.url}/objects`));
    // Two releases on the track, so a rollback whose input got through would succeed.
    for (let i = 0; i < 2; i++) {
      const created = await server.authed('/api/updates/release', {
        method: 'POST',
        body: JSON.stringify(releaseBase),
      });
      if (created.status !== 201) throw new Error(`seed: ${created.status} ${await created.text()}`);
    }
    const [first] = await server.releaseStore.list(TRACK, 10).then((list) => list.slice(-1));
    rollbackBase = { ...TRACK, to: first!.id, actor: 'ci', runId: '42' };
  });
  afterAll(async () => server?.close());

  const send = async (request: RawRequest): Promise<RawResponse> => {
    const answer = await exchange(server.url, request);
    if (typeof answer === 'string') throw new Error(answer);
    return answer;
  };
  const postJson = (target: string, body: Json): RawRequest => ({
    method: 'POST',
    target,
    headers: [
      ['Authorization', `Bearer ${server.token}`],
      ['Content-Type', 'application/json'],
    ],
    body: JSON.stringify(body),
  });

  /** 400 VALIDATION_FAILED naming the field, the common body, and nothing stored. */
  const expectRefused = async (request: RawRequest, path: string | undefined) => {
    const before = await counts();
    const answer = await send(request);
    expect(errorBodyProblem(answer, request.method)).toBeUndefined();
    const body = JSON.parse(answer.body.toString('utf8'));
    expect({ status: answer.status, code: body.error.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    if (path) expect(body.error.details.fields.map((field: { path: string }) => field.path)).toContain(path);
    expect(await counts()).toEqual(before);
  };

  const bodyRows = (fields: string[]) =>
    fields.flatMap((field) =>
      Object.entries(BODY_CHARACTERS).map(([name, text]) => [`${field} × ${name}`, field, text] as const),
    );

  describe('POST /api/updates/release', () => {
    it.each(bodyRows(RELEASE_FIELDS))('%s → 400 naming the field', async (_name, field, text) => {
      await expectRefused(
        postJson('/api/updates/release', withText(releaseBase, field, text)),
        reportedPath('body', field, text),
      );
    });

    it('tab and line breaks stay in otaConfig values (free text) but not in one-line fields', async () => {
      await expectRefused(
        postJson('/api/updates/release', withText(releaseBase, 'metadata.commit', '\t')),
        'body.metadata.commit',
      );
      const before = await counts();
      const accepted = await send(
        postJson('/api/updates/release', { ...releaseBase, otaConfig: { description: 'one\ttwo\r\nthree' } }),
      );
      expect(accepted.status).toBe(201);
      const { release } = JSON.parse(accepted.body.toString('utf8'));
      expect((await server.releaseStore.findById(release.id))?.otaConfig).toEqual({ description: 'one\ttwo\r\nthree' });
      expect((await counts()).releases).toBe(before.releases + 1);
    });
  });

  describe('POST /api/updates/assets', () => {
    const assetBase = () => ({
      channel: TRACK.channel,
      runtimeVersion: TRACK.runtimeVersion,
      assets: [{ hash: HASH, contentType: 'application/javascript', size: 10 }],
    });
    it.each(bodyRows(ASSET_CHECK_FIELDS))('%s → 400 naming the field', async (_name, field, text) => {
      await expectRefused(postJson('/api/updates/assets', withText(assetBase(), field, text)), `body.${field}`);
    });
  });

  describe('POST /api/updates/rollback', () => {
    it.each(bodyRows(ROLLBACK_FIELDS))('%s → 400 naming the field', async (_name, field, text) => {
      await expectRefused(postJson('/api/updates/rollback', withText(rollbackBase, field, text)), `body.${field}`);
    });

    it('the same rollback without the character goes through (the rows above test the character)', async () => {
      const response = await send(postJson('/api/updates/rollback', rollbackBase));
      expect(response.status).toBe(201);
    });
  });

  const queryRows = (params: string[]) =>
    params.flatMap((param) =>
      Object.entries(BYTE_CHARACTERS).map(([name, text]) => [`${param} × ${name}`, param, text] as const),
    );
  const query = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([name, value]) => `${name}=${percentEncode(value)}`)
      .join('&');

  describe('GET /api/updates/baseline-fingerprint', () => {
    it.each(queryRows(BASELINE_QUERY))('%s → 400 naming the parameter', async (_name, param, text) => {
      const values: Record<string, string> = { ...TRACK };
      values[param] = `${values[param]!.slice(0, 1)}${text}${values[param]!.slice(1)}`;
      await expectRefused(
        { method: 'GET', target: `/api/updates/baseline-fingerprint?${query(values)}`, headers: [] },
        `querystring.${param}`,
      );
    });
  });

  describe('GET /api/updates/releases', () => {
    it.each(queryRows(RELEASES_QUERY))('%s → 400 naming the parameter', async (_name, param, text) => {
      const values: Record<string, string> = { ...TRACK, limit: '10' };
      values[param] = `${values[param]!.slice(0, 1)}${text}${values[param]!.slice(1)}`;
      await expectRefused(
        {
          method: 'GET',
          target: `/api/updates/releases?${query(values)}`,
          headers: [['Authorization', `Bearer ${server.token}`]],
        },
        `querystring.${param}`,
      );
    });
  });

  describe('GET /api/updates/manifest headers', () => {
    const manifestHeaders = (ns: string): Array<[string, string]> => [
      [`${ns}-platform`, 'ios'],
      [`${ns}-runtime-version`, TRACK.runtimeVersion],
      [`${ns}-channel-name`, TRACK.channel],
      [`${ns}-current-update-id`, '00000000-0000-4000-8000-000000000000'],
      [`${ns}-embedded-update-id`, '00000000-0000-4000-8000-000000000000'],
      [`${ns}-protocol-version`, '1'],
      ['accept', 'application/expo+json'],
    ];
    const rows = ['ota', 'expo'].flatMap((ns) =>
      MANIFEST_HEADERS.flatMap((header) =>
        Object.entries(BYTE_CHARACTERS).map(
          ([name, text]) => [`${ns}-${header} × ${name}`, `${ns}-${header}`, ns, text] as const,
        ),
      ),
    );

    // The HTTP parser refuses a control character in a header value before any route runs
    // (decisions.md, "Requests the parser refuses"): the common body, code MALFORMED_REQUEST.
    it.each(rows)('%s → 400 MALFORMED_REQUEST, never a 500', async (_name, header, ns, text) => {
      const headers = manifestHeaders(ns).map(([name, value]): [string, string] =>
        name === header ? [name, `${value.slice(0, 1)}${text}${value.slice(1)}`] : [name, value],
      );
      const before = await counts();
      for (const method of ['GET', 'HEAD']) {
        const answer = await send({ method, target: '/api/updates/manifest', headers });
        expect(answer.status).toBe(400);
        expect(errorBodyProblem(answer, method)).toBeUndefined();
        if (method === 'GET') expect(JSON.parse(answer.body.toString('utf8')).error.code).toBe('MALFORMED_REQUEST');
      }
      expect(await counts()).toEqual(before);
    });

    // A tab is legal inside a header value, so it reaches the manifest request's own validation.
    it.each(['ota', 'expo'].flatMap((ns) => MANIFEST_HEADERS.map((header) => [`${ns}-${header}`, ns] as const)))(
      'a tab inside %s → a 4xx with the common body',
      async (header, ns) => {
        const headers = manifestHeaders(ns).map(([name, value]): [string, string] =>
          // Inside, not at an end: the parser strips a tab at either end as whitespace.
          name === header ? [name, `${value.slice(0, 1)}\t${value.slice(1) || value}`] : [name, value],
        );
        const answer = await send({ method: 'GET', target: '/api/updates/manifest', headers });
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(errorBodyProblem(answer, 'GET')).toBeUndefined();
      },
    );
  });
});
