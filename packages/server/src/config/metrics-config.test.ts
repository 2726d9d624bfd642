import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './env.js';
import { loadMetricsConfig } from './metrics-config.js';

const TOKEN = 'metrics-token-0123456789';

describe('loadMetricsConfig', () => {
  it.each([
    [{}, { exposure: 'off' }],
    [{ METRICS_TOKEN: TOKEN }, { exposure: 'main', token: TOKEN }],
    [{ METRICS_PORT: '9464' }, { exposure: 'listener', port: 9464, host: '127.0.0.1', token: undefined }],
    [
      { METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN },
      { exposure: 'listener', port: 9464, host: '0.0.0.0', token: TOKEN },
    ],
    [{ METRICS_PORT: '0' }, { exposure: 'listener', port: 0, host: '127.0.0.1', token: undefined }],
  ])('%j → %j', (env, expected) => {
    expect(loadMetricsConfig(env, 3000)).toEqual(expected);
  });

  it.each([
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
    [{ METRICS_PORT: 'http' }, /Invalid METRICS_PORT: METRICS_PORT must be a whole number/],
    [{ METRICS_PORT: '70000' }, /METRICS_PORT must be between 0 and 65535/],
    [{ METRICS_PORT: '3000' }, /METRICS_PORT must differ from PORT \(3000\)/],
    [{ METRICS_HOST: '0.0.0.0' }, /METRICS_HOST needs METRICS_PORT/],
  ])('refuses %j', (env, message) => {
    expect(() => loadMetricsConfig(env, 3000)).toThrow(ConfigError);
    expect(() => loadMetricsConfig(env, 3000)).toThrow(message);
  });

  it('is part of the configuration, empty values counting as unset', () => {
    expect(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '' }).metrics).toEqual({ exposure: 'off' });
    expect(loadConfig({ PORT: '8080', METRICS_PORT: '9464' }).metrics).toMatchObject({ port: 9464 });
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from PORT/);
  });
});
