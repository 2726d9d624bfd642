import { describe, expect, it } from 'vitest';
import { type BindingVerdict, checkBinding, type SecondCall } from './authentication-binding.js';
import type { AuthenticationState } from './authentication-state-store.js';

const state: AuthenticationState = {
  id: 's1',
  stateHash: 'h',
  userId: 'alice',
  vendor: 'VENDOR_B',
  document: 'family-relations',
  provider: 'provider_a',
  assignmentId: null,
  status: 'pending',
  leaseUntil: null,
  expiresAt: 1_000_000,
  createdAt: 730_000,
};
const call: SecondCall = {
  userId: 'alice',
  vendor: 'VENDOR_B',
  document: 'family-relations',
  provider: 'provider_a',
  assignmentId: null,
  now: 900_000,
};

// decisions §5 "Binding" and "Retry safety" as a table: [case, stored state, second call, verdict].
const rows: Array<[string, AuthenticationState | undefined, SecondCall, BindingVerdict]> = [
  ['the same user, document, provider, in time', state, call, { kind: 'complete' }],
  ['a state never recorded (tampered)', undefined, call, { kind: 'invalid', reason: 'unknown-state' }],
  ['another user', state, { ...call, userId: 'mallory' }, { kind: 'invalid', reason: 'other-user' }],
  ['another vendor', state, { ...call, vendor: 'VENDOR_A' }, { kind: 'invalid', reason: 'other-vendor' }],
  [
    'another document',
    state,
    { ...call, document: 'resident-abstract' },
    { kind: 'invalid', reason: 'other-document' },
  ],
  ['another provider', state, { ...call, provider: 'provider_b' }, { kind: 'invalid', reason: 'other-request' }],
  ['an assignment added', state, { ...call, assignmentId: 'a1' }, { kind: 'invalid', reason: 'other-request' }],
  ['at expiry', state, { ...call, now: 1_000_000 }, { kind: 'expired' }],
  ['after expiry', state, { ...call, now: 2_000_000 }, { kind: 'expired' }],
  ['being completed by another call (lease decides)', { ...state, status: 'completing' }, call, { kind: 'complete' }],
  ['already issued', { ...state, status: 'issued' }, call, { kind: 'reissue' }],
  [
    'already issued, after the authentication expired',
    { ...state, status: 'issued' },
    { ...call, now: 5_000_000 },
    { kind: 'reissue' },
  ],
  [
    'issued, but another user asks',
    { ...state, status: 'issued' },
    { ...call, userId: 'mallory' },
    { kind: 'invalid', reason: 'other-user' },
  ],
];

describe('checkBinding', () => {
  it.each(rows)('%s', (_name, stored, second, verdict) => {
    expect(checkBinding(stored, second)).toEqual(verdict);
  });
});
