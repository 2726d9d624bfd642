import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const preset = require('@ferry/expo/fingerprint') as typeof import('../../config/fingerprint.cjs');
const { ferryFingerprintConfig, STRICT_SETTINGS, RELEASE_CONTROL_CANDIDATES } = preset;
const MARK = preset.FERRY_FINGERPRINT_PRESET;
/** A source's path (file and dir sources) or id (contents). */
const nameOf = (source: { filePath: string } | { id: string }) => ('filePath' in source ? source.filePath : source.id);

const dirs: string[] = [];
function app(files: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-fp-preset-'));
  dirs.push(root);
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), 'module.exports = {};\n');
  }
  return root;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('@ferry/expo/fingerprint: ferryFingerprintConfig', () => {
  it('is @expo/fingerprint’s strict preset written out, plus the release control file as a source', () => {
    const config = ferryFingerprintConfig(app(['release.config.js']));
    expect(config).toEqual({
      preset: 'strict',
      sourceSkips: 512,
      nativeModuleSourceType: 'files',
      configPluginSourceType: 'files',
      hashAlgorithm: 'sha1',
      extraSources: [{ type: 'file', filePath: 'release.config.js', reasons: ['releaseControlFile'] }],
      [MARK]: { version: 1, releaseControlFile: 'release.config.js' },
    });
  });

  it('finds the release control file as `ferry bump` does: the first candidate that exists', () => {
    expect(RELEASE_CONTROL_CANDIDATES[0]).toBe('release.config.js');
    const root = app(['release.js', 'release.config.cjs']);
    expect(nameOf(ferryFingerprintConfig(root).extraSources[0]!)).toBe('release.config.cjs');
  });

  it('takes a named release control file, or none', () => {
    const root = app(['config/release-values.js']);
    expect(ferryFingerprintConfig(root, { releaseControlFile: 'config/release-values.js' }).extraSources).toEqual([
      { type: 'file', filePath: 'config/release-values.js', reasons: ['releaseControlFile'] },
    ]);
    expect(ferryFingerprintConfig(root, { releaseControlFile: false }).extraSources).toEqual([]);
  });

  it('adds extraSources after the release control file, and passes ignorePaths, concurrentIoLimit, debug', () => {
    const extra = { type: 'dir' as const, filePath: 'native-assets', reasons: ['custom'] };
    const config = ferryFingerprintConfig(app(['release.config.js']), {
      extraSources: [extra],
      ignorePaths: ['generated/**/*'],
      concurrentIoLimit: 2,
      debug: true,
    });
    expect(config.extraSources.map(nameOf)).toEqual(['release.config.js', 'native-assets']);
    expect(config).toMatchObject({ ignorePaths: ['generated/**/*'], concurrentIoLimit: 2, debug: true });
  });

  it.each<[string, () => unknown, RegExp]>([
    ['a relative project root', () => ferryFingerprintConfig('app'), /pass __dirname/],
    [
      'no release control file',
      () => ferryFingerprintConfig(app([])),
      /no release control file .*releaseControlFile: false/,
    ],
    [
      'a named file that does not exist',
      () => ferryFingerprintConfig(app([]), { releaseControlFile: 'nope.js' }),
      /nope\.js does not exist/,
    ],
    [
      'an absolute release control file',
      () => ferryFingerprintConfig(app([]), { releaseControlFile: '/etc/passwd' }),
      /relative to the project/,
    ],
    ...Object.keys(STRICT_SETTINGS).map(
      (key) =>
        [
          `overriding ${key}`,
          () => ferryFingerprintConfig(app(['release.config.js']), { [key]: 'x' } as never),
          new RegExp(`${key} is fixed by Ferry's fingerprint preset`),
        ] as [string, () => unknown, RegExp],
    ),
    [
      'an unknown option',
      () => ferryFingerprintConfig(app(['release.config.js']), { sourceSkip: 0 } as never),
      /unknown option sourceSkip/,
    ],
  ])('refuses %s', (_name, call, error) => {
    expect(call).toThrow(error);
  });

  it('its mark survives a spread, and is not a key @expo/fingerprint reads', () => {
    const config = ferryFingerprintConfig(app(['release.config.js']));
    const spread = { ...config, debug: true };
    expect((spread as Record<symbol, unknown>)[MARK]).toEqual({ version: 1, releaseControlFile: 'release.config.js' });
    expect(MARK).toBe(Symbol.for('@ferry/expo/fingerprint-preset'));
    expect(Object.keys(config)).not.toContain(String(MARK));
  });

  it('loads on plain Node through require(), as @expo/fingerprint loads fingerprint.config.js', () => {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        "const c = require('@ferry/expo/fingerprint').ferryFingerprintConfig(process.cwd(), { releaseControlFile: false }); console.log(c.preset, c.sourceSkips, c.nativeModuleSourceType)",
      ],
      { cwd: packageRoot, encoding: 'utf8' },
    ).trim();
    expect(out).toBe('strict 512 files');
  });
});
