import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { isCi, parseAllowNativeChange, parseUpdatePolicy, readPublishEnvironment } from './publish-environment.js';

describe('OTA_UPDATE_POLICY', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['1', 1],
    ['2', 2],
    ['3', 3],
  ])('%j → %j', (raw, expected) => expect(parseUpdatePolicy(raw)).toBe(expected));

  it.each([
    ['0'],
    ['4'],
    ['9'],
    ['-1'],
    ['1.0'],
    ['2.5'],
    [' 2'],
    ['2 '],
    ['02'],
    ['0x2'],
    ['two'],
    ['Notify'],
    ['null'],
  ])('%j is refused, naming the variable and the valid values', (raw) => {
    expect(() => parseUpdatePolicy(raw)).toThrow(CliError);
    expect(() => parseUpdatePolicy(raw)).toThrow(
      /OTA_UPDATE_POLICY must be 1 \(Immediate\), 2 \(Notify\) or 3 \(Default\)/,
    );
  });
});

describe('OTA_ALLOW_NATIVE_CHANGE', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['1', true],
  ])('%j → %j', (raw, expected) => expect(parseAllowNativeChange(raw)).toBe(expected));

  it.each([['true'], ['yes'], ['TRUE'], ['2'], [' 1']])('%j is refused as ambiguous', (raw) => {
    expect(() => parseAllowNativeChange(raw)).toThrow(/OTA_ALLOW_NATIVE_CHANGE must be 1/);
  });
});

describe('CI', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['true', true],
    ['1', true],
    ['yes', true],
  ])('CI=%j → %j', (raw, expected) => expect(isCi({ CI: raw })).toBe(expected));
});

describe('readPublishEnvironment', () => {
  const base = { CI: 'true', OTA_SERVER_URL: 'https://ota.example.com/', OTA_RELEASE_TOKEN: 'secret-token-123456' };

  it('reads the server (flag over variable), token and switches', () => {
    expect(readPublishEnvironment({ ...base, OTA_UPDATE_POLICY: '2' })).toEqual({
      serverUrl: 'https://ota.example.com',
      token: 'secret-token-123456',
      updatePolicy: 2,
      allowNativeChange: false,
    });
    expect(readPublishEnvironment(base, { server: 'http://127.0.0.1:3000' }).serverUrl).toBe('http://127.0.0.1:3000');
  });

  it.each([
    ['no server', { ...base, OTA_SERVER_URL: undefined }, /--server <url> or set OTA_SERVER_URL/],
    ['a server that is not a URL', { ...base, OTA_SERVER_URL: 'ota.example.com' }, /not a URL/],
    ['a non-http server', { ...base, OTA_SERVER_URL: 'ftp://ota.example.com' }, /must be http/],
    ['no token', { ...base, OTA_RELEASE_TOKEN: '' }, /OTA_RELEASE_TOKEN is not set/],
  ])('%s → a clear error', (_name, env, message) => {
    expect(() => readPublishEnvironment(env)).toThrow(message);
  });

  it('the CI refusal comes first and explains why', () => {
    expect(() => readPublishEnvironment({ OTA_UPDATE_POLICY: '9' })).toThrow(/runs only in CI.*native folders/s);
  });

  it('a bad policy is reported even when the server is missing too (switches before destination)', () => {
    expect(() => readPublishEnvironment({ CI: 'true', OTA_UPDATE_POLICY: '9' })).toThrow(/OTA_UPDATE_POLICY/);
  });
});
