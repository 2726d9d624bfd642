import { CHANNELS, isPrereleaseRuntimeVersion, RuntimeVersion } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import {
  APP_ENV_TABLE,
  APP_ENVS,
  appEnvSettings,
  channelFor,
  parseAppEnv,
  runtimeVersionFor,
} from '../../config/index.mjs';

describe('APP_ENV table (spec "Environment to channel")', () => {
  it.each([
    // APP_ENV, channel, manifest address, updates enabled
    ['local', 'development', 'none', false],
    ['development', 'development', 'development', true],
    ['qa', 'development', 'development', true],
    ['production', 'production', 'production', true],
    ['canary', 'development', 'development', true],
  ] as const)('%s → channel %s, manifest address %s, updates enabled %s', (appEnv, channel, address, enabled) => {
    expect(channelFor(appEnv)).toBe(channel);
    expect(appEnvSettings(appEnv)).toEqual({ channel, manifestAddress: address, updatesEnabled: enabled });
  });

  it('has exactly the five environments of the spec', () => {
    expect([...APP_ENVS].sort()).toEqual(['canary', 'development', 'local', 'production', 'qa']);
  });

  it('only names channels that @ferry/contracts accepts', () => {
    for (const appEnv of APP_ENVS) expect(CHANNELS).toContain(APP_ENV_TABLE[appEnv].channel);
  });

  it('cannot be edited by a caller', () => {
    expect(Object.isFrozen(APP_ENV_TABLE)).toBe(true);
    expect(Object.isFrozen(APP_ENV_TABLE.production)).toBe(true);
  });

  it.each([undefined, null, ''])('treats an unset APP_ENV (%s) as local, so updates stay off', (value) => {
    expect(parseAppEnv(value)).toBe('local');
    expect(channelFor(value)).toBe('development');
  });

  it.each(['prod', 'Production', 'staging', ' qa', 'toString', '__proto__'])('rejects unknown APP_ENV %j', (value) => {
    expect(() => channelFor(value)).toThrow(/APP_ENV must be one of local, development, qa, production, canary/);
  });
});

describe('runtimeVersions agree with @ferry/contracts', () => {
  it.each([
    [{ appVersion: '2.3.0', buildNumber: 57, isPrerelease: false }, false],
    [{ appVersion: '2.3.0', buildNumber: '1.0.12', isPrerelease: false }, false],
    [{ appVersion: '2.4.0', buildNumber: 58, isPrerelease: true }, true],
  ])('%j is a valid RuntimeVersion (pre-release: %s)', (input, prerelease) => {
    const runtimeVersion = runtimeVersionFor(input);
    expect(RuntimeVersion.safeParse(runtimeVersion).success).toBe(true);
    expect(isPrereleaseRuntimeVersion(runtimeVersion)).toBe(prerelease);
  });
});
