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
const { ferryFingerprintConfig, STRICT_SETTINGS, RELEASE_CONTROL_CANDIDATES, CODE_SIGNING_SOURCE_ID } = preset;
const MARK = preset.FERRY_FINGERPRINT_PRESET;
/** A source's path (file and dir sources) or id (contents). */
const nameOf = (source: { filePath: string } | { id: string }) => ('filePath' in source ? source.filePath : source.id);

/** Two certificates' bytes (their content does not matter to the preset, only that they differ). */
const CERTIFICATE_A = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const CERTIFICATE_B = '-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n';

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
  it('is @expo/fingerprint’s strict preset written out, plus the release control file and the certificate as sources', () => {
    const root = app(['release.config.js']);
    fs.mkdirSync(path.join(root, 'certs'));
    fs.writeFileSync(path.join(root, 'certs/certificate.pem'), CERTIFICATE_A);
    const config = ferryFingerprintConfig(root);
    expect(config).toEqual({
      preset: 'strict',
      sourceSkips: 512,
      nativeModuleSourceType: 'files',
      configPluginSourceType: 'files',
      hashAlgorithm: 'sha1',
      extraSources: [
        { type: 'file', filePath: 'release.config.js', reasons: ['releaseControlFile'] },
        {
          type: 'contents',
          id: 'ferry:codeSigningCertificate',
          contents: JSON.stringify({ file: 'certs/certificate.pem', certificate: CERTIFICATE_A }),
          reasons: ['codeSigningCertificate'],
        },
      ],
      [MARK]: { version: 2, releaseControlFile: 'release.config.js', codeSigningCertificate: 'certs/certificate.pem' },
    });
  });

  describe('the code-signing certificate', () => {
    const certificateSource = (root: string, options: Parameters<typeof ferryFingerprintConfig>[1] = {}) =>
      ferryFingerprintConfig(root, { releaseControlFile: false, ...options }).extraSources.find(
        (source) => 'id' in source && source.id === CODE_SIGNING_SOURCE_ID,
      );
    const write = (root: string, file: string, content: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), content);
    };

    it('hashes its bytes: another certificate, and no certificate at all, are other inputs', () => {
      const root = app([]);
      const missing = certificateSource(root);
      write(root, 'certs/certificate.pem', CERTIFICATE_A);
      const a = certificateSource(root);
      write(root, 'certs/certificate.pem', CERTIFICATE_B);
      const b = certificateSource(root);
      write(root, 'certs/certificate.pem', CERTIFICATE_A);
      const contents = [missing, a, b].map((source) => (source as { contents: string }).contents);
      expect(new Set(contents).size).toBe(3);
      expect(certificateSource(root)).toEqual(a);
    });

    it('takes the path the app config names, in one spelling, and false for an app without code signing', () => {
      const root = app([]);
      write(root, 'keys/app-cert.pem', CERTIFICATE_A);
      const config = ferryFingerprintConfig(root, {
        releaseControlFile: false,
        codeSigningCertificate: './keys/app-cert.pem',
      });
      expect(
        (config as unknown as Record<symbol, { codeSigningCertificate: string }>)[MARK]?.codeSigningCertificate,
      ).toBe('keys/app-cert.pem');
      expect(certificateSource(root, { codeSigningCertificate: 'keys/./app-cert.pem' })).toEqual(
        config.extraSources[0],
      );
      const without = ferryFingerprintConfig(root, { releaseControlFile: false, codeSigningCertificate: false });
      expect(without.extraSources).toEqual([]);
      expect(
        (without as unknown as Record<symbol, { codeSigningCertificate: null }>)[MARK]?.codeSigningCertificate,
      ).toBeNull();
    });

    it.each([
      ['an absolute path', '/etc/ssl/cert.pem', /relative to the project/],
      ['a path outside the project', '../shared/cert.pem', /inside the project/],
      ['an empty path', '', /relative to the project/],
    ])('refuses %s', (_name, given, error) => {
      expect(() => certificateSource(app([]), { codeSigningCertificate: given })).toThrow(error);
    });
  });

  it('finds the release control file as `ferry bump` does: the first candidate that exists', () => {
    expect(RELEASE_CONTROL_CANDIDATES[0]).toBe('release.config.js');
    const root = app(['release.js', 'release.config.cjs']);
    expect(nameOf(ferryFingerprintConfig(root).extraSources[0]!)).toBe('release.config.cjs');
  });

  it('takes a named release control file, or none', () => {
    const root = app(['config/release-values.js']);
    const noCertificate = { codeSigningCertificate: false } as const;
    expect(
      ferryFingerprintConfig(root, { releaseControlFile: 'config/release-values.js', ...noCertificate }).extraSources,
    ).toEqual([{ type: 'file', filePath: 'config/release-values.js', reasons: ['releaseControlFile'] }]);
    expect(ferryFingerprintConfig(root, { releaseControlFile: false, ...noCertificate }).extraSources).toEqual([]);
  });

  it('adds extraSources after the release control file, and passes ignorePaths, concurrentIoLimit, debug', () => {
    const extra = { type: 'dir' as const, filePath: 'native-assets', reasons: ['custom'] };
    const config = ferryFingerprintConfig(app(['release.config.js']), {
      extraSources: [extra],
      ignorePaths: ['generated/**/*'],
      concurrentIoLimit: 2,
      debug: true,
    });
    expect(config.extraSources.map(nameOf)).toEqual([
      'release.config.js',
      'ferry:codeSigningCertificate',
      'native-assets',
    ]);
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
    expect((spread as Record<symbol, unknown>)[MARK]).toEqual({
      version: 2,
      releaseControlFile: 'release.config.js',
      codeSigningCertificate: 'certs/certificate.pem',
    });
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
