import { describe, expect, it } from 'vitest';
import { AppSlug, appOfUpdatesUrl, appsOfGrants, type OperatorGrant, roleInApp, serverRoleOf } from './apps.js';

describe('roleInApp: the role an operator has in the app in view', () => {
  const every = (role: OperatorGrant['role']): OperatorGrant => ({ app: null, role });
  const inApp = (app: string, role: OperatorGrant['role']): OperatorGrant => ({ app, role });
  it.each([
    { grants: [], app: 'a', role: undefined },
    { grants: [every('admin')], app: 'a', role: 'admin' },
    { grants: [inApp('a', 'viewer')], app: 'a', role: 'viewer' },
    { grants: [inApp('a', 'viewer')], app: 'b', role: undefined },
    { grants: [inApp('a', 'viewer'), inApp('b', 'releaser')], app: 'b', role: 'releaser' },
    { grants: [inApp('a', 'viewer'), inApp('b', 'releaser')], app: 'a', role: 'viewer' },
    { grants: [inApp('a', 'releaser'), every('viewer')], app: 'a', role: 'releaser' },
    { grants: [inApp('a', 'viewer'), every('admin')], app: 'a', role: 'admin' },
    { grants: [inApp('a', 'viewer'), every('viewer')], app: 'c', role: 'viewer' },
  ] as Array<{ grants: OperatorGrant[]; app: string; role: string | undefined }>)(
    '$grants.length grants, app $app → $role',
    ({ grants, app, role }) => {
      expect(roleInApp(grants, app)).toBe(role);
    },
  );

  it('serverRoleOf counts only grants for every app', () => {
    expect(serverRoleOf([inApp('a', 'admin')])).toBeUndefined();
    expect(serverRoleOf([inApp('a', 'admin'), every('viewer')])).toBe('viewer');
  });

  it('appsOfGrants lists the apps named, or all', () => {
    expect(appsOfGrants([inApp('a', 'viewer'), inApp('b', 'admin'), inApp('a', 'releaser')])).toEqual(['a', 'b']);
    expect(appsOfGrants([inApp('a', 'viewer'), every('viewer')])).toBe('all');
  });
});

describe('appOfUpdatesUrl: the app an updates URL names', () => {
  it.each([
    ['https://ota.example.com/api/apps/my-app/manifest', 'my-app'],
    ['https://ota.example.com/api/apps/my-app/manifest/', 'my-app'],
    ['https://ota.example.com/api/updates/manifest', 'default'],
    ['https://ota.example.com/api/updates/manifest?x=1', 'default'],
    ['https://ota.example.com/api/apps/My-App/manifest', undefined],
    ['https://ota.example.com/api/apps/a/manifest', undefined],
    ['https://ota.example.com/api/apps/my-app/other', undefined],
    ['https://u.expo.dev/abc', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, app) => {
    expect(appOfUpdatesUrl(url)).toBe(app);
  });
});

describe('AppSlug', () => {
  it.each([
    ['my-app', true],
    ['a1', true],
    ['default', true],
    ['a', false],
    ['1app', false],
    ['my--app', false],
    ['my-app-', false],
    ['MyApp', false],
    ['a'.repeat(40), true],
    ['a'.repeat(41), false],
    ['my_app', false],
  ])('%s valid: %s', (slug, valid) => {
    expect(AppSlug.safeParse(slug).success).toBe(valid);
  });
});
