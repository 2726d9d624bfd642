/**
 * docs/errors.md, rendered from the error catalogue (packages/contracts/src/error-catalogue.ts).
 * `npm run openapi` writes it beside docs/openapi.json; test/error-catalogue.test.ts fails when the
 * file is out of date.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOGUE, type ErrorArea, type ErrorCatalogueEntry } from '@ferry/contracts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ERRORS_FILE = path.join(ROOT, 'docs/errors.md');

const AREAS: ReadonlyArray<{ area: ErrorArea; title: string; intro: string }> = [
  {
    area: 'every-endpoint',
    title: 'Every endpoint',
    intro: 'The parser, the router, validation, credentials, limits and outages: any route may answer these.',
  },
  {
    area: 'ota',
    title: 'OTA updates',
    intro:
      'Publishing, rollback, rollouts, uploads, garbage collection and embedded bundles ([publishing.md](publishing.md), [ota.md](ota.md), [gc.md](gc.md)).',
  },
  {
    area: 'operators',
    title: 'Operators and the release console',
    intro: 'Operator tokens, console sessions and the console itself ([console.md](console.md)).',
  },
  {
    area: 'certificates',
    title: 'Certificates',
    intro:
      'Certificate issuance and the web funnel ([certificates.md](certificates.md#errors) says which call answers what).',
  },
];

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The catalogue as Markdown: the body every refusal carries, then one table per area. */
export function errorCatalogueMarkdown(): string {
  const entries = Object.entries(ERROR_CATALOGUE) as Array<[string, ErrorCatalogueEntry]>;
  const lines = [
    '# Error codes',
    '',
    '<!-- Generated from packages/contracts/src/error-catalogue.ts by `npm run openapi`: edit the catalogue, not this file. -->',
    '',
    'Every refusal, on every endpoint, carries the same body:',
    '',
    '```json',
    '{ "error": { "code": "NATIVE_FINGERPRINT_CHANGED", "message": "…", "details": {} } }',
    '```',
    '',
    '`code` is stable: clients branch on it, and a code never changes its meaning or its status.',
    '`message` is for people and never holds a secret or an identity number. `details` depends on the',
    'code. A refusal that may succeed later carries `Retry-After`. These are all the codes Ferry answers;',
    'the OpenAPI document (`/docs`, [openapi.json](openapi.json)) links this page.',
  ];
  for (const { area, title, intro } of AREAS) {
    lines.push('', `## ${title}`, '', intro, '', '| Code | Status | Meaning |', '| --- | --- | --- |');
    for (const [code, entry] of entries.filter(([, entry]) => entry.area === area)) {
      lines.push(`| \`${code}\` | ${entry.status} | ${cell(entry.meaning)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
