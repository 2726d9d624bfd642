import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_54_TEMPLATE, SDK_55_TEMPLATE } from '../../test/support/expo-templates.js';
import { withFerryIgnores } from './gitignore.js';

/** What `git check-ignore` says of each path under a .gitignore (true: ignored). */
function ignored(gitignore: string, paths: string[]): Record<string, boolean> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-gitignore-'));
  try {
    execFileSync('git', ['init', '-q'], { cwd: root });
    fs.writeFileSync(path.join(root, '.gitignore'), gitignore);
    return Object.fromEntries(
      paths.map((file) => {
        try {
          execFileSync('git', ['check-ignore', '-q', file], { cwd: root });
          return [file, true];
        } catch {
          return [file, false];
        }
      }),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('withFerryIgnores: the certificate committed, its private key never', () => {
  const files = ['certs/certificate.pem', 'certs/private-key.pem', 'keys/other.pem'];

  it.each([
    ["SDK 54's template (*.pem ignored)", SDK_54_TEMPLATE['.gitignore']!],
    ["SDK 55's template (*.pem ignored)", SDK_55_TEMPLATE['.gitignore']!],
    ['a .gitignore that ignores the whole folder', 'certs/\n'],
    ['none', ''],
  ])('%s', (_name, current) => {
    expect(ignored(withFerryIgnores(current), files)).toMatchObject({
      'certs/certificate.pem': false,
      'certs/private-key.pem': true,
    });
  });

  it("keeps the template's own rules for other files, and adds the block once", () => {
    const once = withFerryIgnores(SDK_55_TEMPLATE['.gitignore']!);
    expect(ignored(once, files)['keys/other.pem']).toBe(true);
    expect(once.startsWith(SDK_55_TEMPLATE['.gitignore']!)).toBe(true);
    expect(withFerryIgnores(once)).toBe(once);
    expect(withFerryIgnores('node_modules/')).toBe(`node_modules/\n\n${withFerryIgnores(undefined)}`);
  });
});
