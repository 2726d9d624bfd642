import { describe, expect, it } from 'vitest';
import { channelOf, runtimeVersionOf } from './app-config.js';

describe('runtimeVersionOf', () => {
  it.each([
    ['platform string', { ios: { runtimeVersion: '1.4.0(17)' } }, 'ios', '1.4.0(17)'],
    [
      'the platform wins over the top level',
      { runtimeVersion: 'top', android: { runtimeVersion: '1.4.0(41)' } },
      'android',
      '1.4.0(41)',
    ],
    ['top-level string', { runtimeVersion: '1.4.0-pre' }, 'ios', '1.4.0-pre'],
  ])('%s', (_name, config, platform, expected) => {
    expect(runtimeVersionOf(config, platform as 'ios' | 'android')).toBe(expected);
  });

  it.each([
    ['none at all', {}, /gives ios no runtimeVersion.*runtimeVersionFor\(\)/],
    ['empty string', { ios: { runtimeVersion: '' } }, /no runtimeVersion/],
    [
      'the fingerprint policy',
      { runtimeVersion: { policy: 'fingerprint' } },
      /never uses the fingerprint as runtimeVersion/,
    ],
    [
      'another policy',
      { ios: { runtimeVersion: { policy: 'appVersion' } } },
      /\{"policy":"appVersion"\}, not a string/,
    ],
    ['a number', { runtimeVersion: 3 }, /3, not a string/],
    ['a newline', { runtimeVersion: '1.0\n(1)' }, /not usable: runtimeVersion must be printable ASCII/],
  ])('%s → a clear error', (_name, config, message) => {
    expect(() => runtimeVersionOf(config, 'ios')).toThrow(message);
  });
});

describe('channelOf', () => {
  it.each([
    [{ updates: { requestHeaders: { 'expo-channel-name': 'production' } } }, 'production'],
    [{ updates: { requestHeaders: { 'ota-channel-name': 'development' } } }, 'development'],
    [{ updates: {} }, undefined],
    [{}, undefined],
  ])('%j → %j', (config, expected) => expect(channelOf(config)).toBe(expected));
});
