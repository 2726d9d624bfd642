import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { ConfigError } from '../../src/config/env.js';

describe('SHUTDOWN_GRACE_MS', () => {
  it('defaults to 10 s, reads a whole number of milliseconds, and names itself when malformed', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '25000' }).shutdownGraceMs).toBe(25_000);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '10s' })).toThrow(ConfigError);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '10s' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});
