import fs from 'node:fs';

/** This package's version: ../package.json from src/ (checkout) and from dist/ (installed) alike. */
export const SERVER_VERSION: string = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
