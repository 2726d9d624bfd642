import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOGUE_URL } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocumentText } from '../../src/http/openapi-document.js';
import { OpenApiAnswers, type OpenApiDocument } from '../support/openapi-answers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const OPENAPI_FILE = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));

// The document does not depend on the database engine: one server suffices.
describe('the OpenAPI document', () => {
  let server: TestServer;
  let served: OpenApiDocument & Record<string, unknown>;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    served = await (await fetch(`${server.url}/docs/json`)).json();
  });
  afterAll(async () => server?.close());

  it('docs/openapi.json is the document /docs/json serves', () => {
    const kept = fs.readFileSync(OPENAPI_FILE, 'utf8');
    // Compared as text: key order and formatting are part of what the file promises.
    expect(kept === openapiDocumentText(served), 'docs/openapi.json is out of date: run npm run openapi').toBe(true);
  });

  it('declares what the issue found undeclared', () => {
    const manifest = served.paths['/api/updates/manifest']!.get!.responses!;
    expect(Object.keys(manifest['200']!.content ?? {})).toEqual(
      expect.arrayContaining(['multipart/mixed', 'application/expo+json', 'application/json']),
    );
    expect(manifest['204']?.content).toBeUndefined();
    expect(Object.keys(manifest)).toEqual(expect.arrayContaining(['400', '406', '503']));
    // The export (NDJSON, oldest first) and the newest-first pages (JSON, order=newest).
    expect(Object.keys(served.paths['/api/audit-events']!.get!.responses!['200']!.content ?? {})).toEqual([
      'application/x-ndjson',
      'application/json',
    ]);
    const signOut = served.paths['/api/console/session']!.delete!.responses!['204']!;
    expect(signOut.content).toBeUndefined();
  });

  it('links the error catalogue, which lists every code a refusal may carry', () => {
    expect(served.externalDocs).toEqual(expect.objectContaining({ url: ERROR_CATALOGUE_URL }));
    expect((served.info as { description: string }).description).toContain(ERROR_CATALOGUE_URL);
  });

  it('declares no 500 anywhere: Ferry answers one only for a bug', () => {
    const statuses = Object.values(served.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => Object.keys(operation.responses ?? {})),
    );
    expect(statuses).not.toContain('500');
    expect(statuses).not.toContain('default');
  });
});

describe('the answer check', () => {
  const answers = new OpenApiAnswers({
    paths: {
      '/api/things/{id}': {
        get: {
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { id: { type: 'string', format: 'uuid' }, note: { type: 'string', nullable: true } },
                    required: ['id'],
                  },
                },
              },
            },
            '204': {},
            '304': {},
          },
        },
      },
      '/objects/{*}': { get: { responses: { '200': { content: { '*/*': { schema: { type: 'string' } } } } } } },
    },
  });
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const id = '00000000-0000-4000-8000-000000000000';

  it.each([
    [
      'a declared JSON answer',
      'GET',
      '/api/things/1',
      200,
      'application/json; charset=utf-8',
      json({ id, note: null }),
    ],
    ['a declared bodiless answer', 'GET', '/api/things/1', 204, '', Buffer.alloc(0)],
    ['HEAD as its GET declares it', 'HEAD', '/api/things/1', 200, 'application/json', Buffer.alloc(0)],
    ['any media type where */* is declared', 'GET', '/objects/a/b/c.png', 200, 'image/png', Buffer.from([1, 2])],
    [
      'the common 404 of an unknown route',
      'GET',
      '/api/nowhere',
      404,
      'application/json',
      json({ error: { code: 'NOT_FOUND', message: 'x', details: {} } }),
    ],
  ])('passes %s', (_label, method, path, status, contentType, body) => {
    expect(answers.check(method, path, status, contentType, body)).toBeUndefined();
  });

  it.each([
    ['an undeclared status', 'GET', '/api/things/1', 404, 'application/json', json({}), /status 404 is not declared/],
    [
      'an undeclared content type',
      'GET',
      '/api/things/1',
      200,
      'text/plain',
      Buffer.from('x'),
      /content type text\/plain/,
    ],
    ['a body that breaks the schema', 'GET', '/api/things/1', 200, 'application/json', json({ id: 'x' }), /format/],
    ['a body where none is declared', 'GET', '/api/things/1', 304, 'text/plain', Buffer.from('x'), /declares none/],
    ['an undeclared method', 'POST', '/api/things/1', 201, '', Buffer.alloc(0), /no operation/],
    [
      'an error code the catalogue does not list',
      'GET',
      '/api/nowhere',
      404,
      'application/json',
      json({ error: { code: 'NO_SUCH_THING', message: 'x', details: {} } }),
      /NO_SUCH_THING is not in the error catalogue/,
    ],
    [
      'a catalogued code answered with another status',
      'GET',
      '/api/nowhere',
      404,
      'application/json',
      json({ error: { code: 'VALIDATION_FAILED', message: 'x', details: {} } }),
      /VALIDATION_FAILED answered with 404; the error catalogue gives 400/,
    ],
    [
      'an unknown route not answering the common 404',
      'GET',
      '/api/nowhere',
      404,
      'text/plain',
      Buffer.from('x'),
      /common JSON error body/,
    ],
  ])('flags %s', (_label, method, path, status, contentType, body, reason) => {
    expect(answers.check(method, path, status, contentType, body)).toMatch(reason);
  });
});
