/**
 * npm run openapi — writes docs/openapi.json: the OpenAPI document the server serves at
 * /docs/json, from a server built on the embedded development defaults (every area on, the local
 * object store) in a throwaway DATA_DIR. Nothing listens; the document comes from app.swagger().
 * It also writes docs/errors.md, the error catalogue the document links.
 * packages/server/test/openapi/openapi-document.test.ts and test/error-catalogue.test.ts fail when
 * either file is out of date.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config/config.js';
import { applyDevelopmentDefaults } from '../packages/server/src/config/development-defaults.js';
import { openapiDocumentText } from '../packages/server/src/http/openapi-document.js';
import { ERRORS_FILE, errorCatalogueMarkdown } from './error-catalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OPENAPI_FILE = path.join(ROOT, 'docs/openapi.json');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-openapi-'));
try {
  // Only what the document does not depend on is set: where data goes, and quiet logs.
  const { config } = await applyDevelopmentDefaults(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }));
  const app = await buildApp({ config });
  try {
    await app.ready();
    fs.writeFileSync(OPENAPI_FILE, openapiDocumentText(app.swagger()));
  } finally {
    await app.close();
  }
  fs.writeFileSync(ERRORS_FILE, errorCatalogueMarkdown());
  for (const file of [OPENAPI_FILE, ERRORS_FILE]) process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
