import { createRequire } from 'node:module';
import type { FingerprintSource } from '@expo/fingerprint';
import { describe, expect, it } from 'vitest';
import { assertCompleteSources, FINGERPRINT_OPTIONS, FINGERPRINT_PACKAGE_VERSION } from './pinned-fingerprint.js';

const contents = (id: string, reasons: string[] = [id]): FingerprintSource =>
  ({ type: 'contents', id, contents: '', reasons, hash: 'h' }) as FingerprintSource;
const pkg = (reasons: string[]): FingerprintSource =>
  ({ type: 'file', filePath: 'node_modules/react-native/package.json', reasons, hash: 'h' }) as FingerprintSource;

const appConfig = contents('expoConfig');
const reactNative = pkg(['package:react-native']);
const autolinking = contents('expoAutolinkingConfig:ios', ['expoAutolinkingIos']);
const rnAutolinking = contents('rncoreAutolinkingConfig:ios', ['rncoreAutolinkingIos']);

describe('assertCompleteSources', () => {
  it.each([
    ['all three', [appConfig, reactNative, autolinking], undefined],
    ['RN core autolinking counts as autolinking', [appConfig, reactNative, rnAutolinking], undefined],
    ['no app config', [reactNative, autolinking], /lacks the evaluated app config/],
    ['no react-native', [appConfig, autolinking], /lacks the react-native package/],
    ['no autolinking', [appConfig, reactNative], /lacks the autolinking configuration/],
    [
      'an uninstalled project (scripts only)',
      [contents('packageJson:scripts')],
      /lacks the evaluated app config .*, the react-native package, the autolinking configuration.*npm ci/,
    ],
  ])('%s', (_name, sources, error) => {
    const check = () => assertCompleteSources(sources, 'ios');
    if (error) expect(check).toThrow(error);
    else expect(check).not.toThrow();
  });
});

describe('the pin', () => {
  it('the installed @expo/fingerprint is the pinned version, and package.json pins it exactly', () => {
    const require = createRequire(import.meta.url);
    expect(require('@expo/fingerprint/package.json').version).toBe(FINGERPRINT_PACKAGE_VERSION);
    expect(require('../../package.json').dependencies['@expo/fingerprint']).toBe(FINGERPRINT_PACKAGE_VERSION);
  });

  it('passes the strict preset settings explicitly, as the library resolves them', () => {
    const require = createRequire(import.meta.url);
    const { resolvePreset } = require('@expo/fingerprint/build/Presets.js');
    expect(FINGERPRINT_OPTIONS).toMatchObject({ preset: 'strict', ...resolvePreset('strict') });
  });
});
