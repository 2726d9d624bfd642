import { describe, expect, it } from 'vitest';
import { type AuthenticationView, authenticationView } from './authentication-view.js';

const NOW = 1_000_000_000;
const TTL = 600;
const pending = { status: 'pending' as const, expiresAt: NOW + 1, leaseUntil: null };
const issuedAt = (ago: number) => ({ createdAt: NOW - ago, expiresAt: NOW + 7 * 86_400_000, deletedAt: null });

type Row = [
  string,
  Parameters<typeof authenticationView>[0],
  Parameters<typeof authenticationView>[1],
  AuthenticationView,
];

const ROWS: Row[] = [
  ['pending inside its window', pending, undefined, { status: 'pending', link: null }],
  ['pending at the end of its window', { ...pending, expiresAt: NOW }, undefined, { status: 'expired', link: null }],
  ['pending past its window', { ...pending, expiresAt: NOW - 1 }, undefined, { status: 'expired', link: null }],
  [
    'completing past its window under a live lease (the call may still issue)',
    { status: 'completing', expiresAt: NOW - 1, leaseUntil: NOW + 1 },
    undefined,
    { status: 'pending', link: null },
  ],
  [
    'pending past its window, with a lease time left over from a call that gave it back',
    { status: 'pending', expiresAt: NOW - 1, leaseUntil: NOW + 1 },
    undefined,
    { status: 'expired', link: null },
  ],
  [
    'completing past its window, lease run out',
    { status: 'completing', expiresAt: NOW - 1, leaseUntil: NOW },
    undefined,
    { status: 'expired', link: null },
  ],
  [
    'marked issued without an issuance to show',
    { status: 'issued', expiresAt: NOW + 1, leaseUntil: null },
    undefined,
    { status: 'expired', link: null },
  ],
  [
    'issued just now: the whole URL lifetime',
    { ...pending, status: 'issued' },
    issuedAt(0),
    { status: 'issued', link: { expiresAt: NOW + TTL * 1000, remainingSeconds: TTL } },
  ],
  [
    'issued 4 minutes 0.5 s ago: what is left, in whole seconds',
    { ...pending, status: 'issued' },
    issuedAt(240_500),
    { status: 'issued', link: { expiresAt: NOW - 240_500 + TTL * 1000, remainingSeconds: 359 } },
  ],
  [
    'issued, link window over (reading again never lengthens it)',
    { ...pending, status: 'issued', expiresAt: NOW - 1 },
    issuedAt(TTL * 1000),
    { status: 'issued', link: { expiresAt: NOW, remainingSeconds: 0 } },
  ],
  [
    'issued, PDF removed by retention',
    { ...pending, status: 'issued' },
    { ...issuedAt(0), deletedAt: NOW },
    { status: 'issued', link: { expiresAt: NOW + TTL * 1000, remainingSeconds: 0 } },
  ],
  [
    'issued, retention over but not swept yet',
    { ...pending, status: 'issued' },
    { ...issuedAt(0), expiresAt: NOW },
    { status: 'issued', link: { expiresAt: NOW + TTL * 1000, remainingSeconds: 0 } },
  ],
];

describe('an authentication as its owner reads it again', () => {
  it.each(ROWS)('%s', (_case, state, issuance, view) => {
    expect(authenticationView(state, issuance, { now: NOW, urlTtlSeconds: TTL })).toEqual(view);
  });
});
