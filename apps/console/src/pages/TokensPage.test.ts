import { OPERATOR_ROLES } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { createI18n, translatorOf } from '../i18n/console-i18n.js';
import { EVERY_APP, roleGrants, tokenAppChoices, tokenAppLabel, tokenAppOf } from './TokensPage.js';

const en = translatorOf(createI18n('en'));

describe('roleGrants', () => {
  it('words each role’s grants from the access rule', () => {
    expect(Object.fromEntries(OPERATOR_ROLES.map((role) => [role, roleGrants(en, role)]))).toEqual({
      viewer: 'read releases, rollouts and the audit log',
      releaser:
        'read releases, rollouts and the audit log, change, complete and revert rollouts, roll back to an earlier release, roll back to the embedded bundle',
      admin:
        'read releases, rollouts and the audit log, change, complete and revert rollouts, roll back to an earlier release, roll back to the embedded bundle, collect unreferenced assets, manage operator tokens',
    });
  });
});

describe('a token’s app', () => {
  const apps = [
    { slug: 'alpha', name: 'Alpha shop' },
    { slug: 'beta', name: 'Beta' },
  ];

  it('may be every app (server-wide) only for an admin token; else one of the apps the operator sees', () => {
    expect(tokenAppChoices(en, 'admin', apps)).toEqual([
      [EVERY_APP, 'every app (server-wide)'],
      ['alpha', 'Alpha shop'],
      ['beta', 'Beta'],
    ]);
    for (const role of ['viewer', 'releaser'] as const) {
      expect(tokenAppChoices(en, role, apps)).toEqual([
        ['alpha', 'Alpha shop'],
        ['beta', 'Beta'],
      ]);
    }
  });

  it('is sent as the request’s app: null for every app', () => {
    expect(tokenAppOf(EVERY_APP)).toBeNull();
    expect(tokenAppOf('beta')).toBe('beta');
  });

  it('is listed by name when the operator sees the app, else by slug; every app in words', () => {
    expect(tokenAppLabel(en, 'alpha', apps)).toBe('Alpha shop');
    expect(tokenAppLabel(en, 'gamma', apps)).toBe('gamma');
    expect(tokenAppLabel(en, null, apps)).toBe('every app (server-wide)');
  });
});
