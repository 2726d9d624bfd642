import { OPERATOR_ROLES } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { createI18n, translatorOf } from '../i18n/console-i18n.js';
import { roleGrants } from './TokensPage.js';

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
