import { describe, expect, it } from 'vitest';
import { mayPerform, OPERATOR_ACTIONS, type OperatorAction, type Principal } from './operator-actions.js';

// One row per action: who may perform it (v = viewer, r = releaser, a = admin, t = release token).
const TABLE: Record<OperatorAction, string> = {
  read: 'v r a t',
  'rollout.change': 'r a t',
  rollback: 'r a t',
  'directive.create': 'r a t',
  publish: 't',
  gc: 'a t',
  'tokens.manage': 'a',
  'console.sign-in': 'v r a',
};
const LETTER: Record<Principal, string> = { viewer: 'v', releaser: 'r', admin: 'a', 'release-token': 't' };

describe('mayPerform', () => {
  const cases = OPERATOR_ACTIONS.flatMap((action) =>
    (Object.keys(LETTER) as Principal[]).map((principal) => ({
      principal,
      action,
      allowed: TABLE[action].split(' ').includes(LETTER[principal]),
    })),
  );
  it.each(cases)('$principal may $action: $allowed', ({ principal, action, allowed }) => {
    expect(mayPerform(principal, action)).toBe(allowed);
  });
});
