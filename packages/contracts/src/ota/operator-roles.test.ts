import { describe, expect, it } from 'vitest';
import {
  allowedActions,
  mayPerform,
  OPERATOR_ACTIONS,
  type OperatorAction,
  type Principal,
  refusalMessage,
  whoMayPerform,
} from './operator-roles.js';

// One row per action: who may perform it (v = viewer, r = releaser, a = admin, t = release token).
const TABLE: Record<OperatorAction, string> = {
  read: 'v r a t',
  'rollout.change': 'r a t',
  rollback: 'r a t',
  'directive.create': 'r a t',
  promote: 'r a t',
  publish: 't',
  gc: 'a t',
  'tokens.manage': 'a',
  'console.sign-in': 'v r a',
  'apps.manage': 'a',
};
const LETTER: Record<Principal, string> = { viewer: 'v', releaser: 'r', admin: 'a', 'release-token': 't' };
const PRINCIPALS = Object.keys(LETTER) as Principal[];

describe('mayPerform', () => {
  const cases = OPERATOR_ACTIONS.flatMap((action) =>
    PRINCIPALS.map((principal) => ({
      principal,
      action,
      allowed: TABLE[action].split(' ').includes(LETTER[principal]),
    })),
  );
  it.each(cases)('$principal may $action: $allowed', ({ principal, action, allowed }) => {
    expect(mayPerform(principal, action)).toBe(allowed);
  });
});

describe('what is read off the rule', () => {
  it.each(PRINCIPALS)('allowedActions(%s) are the actions mayPerform allows, in order', (principal) => {
    expect(allowedActions(principal)).toEqual(
      OPERATOR_ACTIONS.filter((action) => TABLE[action].includes(LETTER[principal])),
    );
  });

  it.each(OPERATOR_ACTIONS)('whoMayPerform(%s) lists the roles lowest first, and the release token', (action) => {
    const letters = TABLE[action].split(' ');
    expect(whoMayPerform(action)).toEqual({
      roles: (['viewer', 'releaser', 'admin'] as const).filter((role) => letters.includes(LETTER[role])),
      releaseToken: letters.includes('t'),
    });
  });
});

describe('refusalMessage', () => {
  it.each([
    ['viewer', 'rollout.change', 'Only a releaser or an admin may change a rollout; you are signed in as a viewer.'],
    [
      'viewer',
      'promote',
      'Only a releaser or an admin may promote a release to another channel; you are signed in as a viewer.',
    ],
    ['releaser', 'gc', 'Only an admin may collect unreferenced assets; you are signed in as a releaser.'],
    [
      'admin',
      'publish',
      'Only the CI release token (OTA_RELEASE_TOKEN) may publish a release; you are signed in as an admin.',
    ],
    [
      'release-token',
      'tokens.manage',
      'Only an admin may manage operator tokens; the CI release token may not (use an operator token with that role).',
    ],
    [
      'release-token',
      'console.sign-in',
      'Only a viewer, a releaser or an admin may sign in to the console; the CI release token may not (use an operator token with that role).',
    ],
  ] as const)('%s refused %s', (principal, action, message) => {
    expect(refusalMessage(principal, action)).toBe(message);
  });
});
