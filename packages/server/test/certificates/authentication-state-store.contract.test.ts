import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticationState, BoundClaim } from '../../src/certificates/authentication-state-store.js';
import { KyselyAuthenticationStateStore } from '../../src/certificates/kysely-authentication-state-store.js';
import { type Database, openMigratedDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';

const NOW = 1_800_000_000_000;
const LEASE_UNTIL = NOW + 40_000;

const recorded = (change: Partial<AuthenticationState> = {}): AuthenticationState => ({
  id: randomUUID(),
  stateHash: randomUUID(),
  userId: 'user-1',
  vendor: 'VENDOR_A',
  document: 'resident-certificate',
  provider: 'provider_a',
  assignmentId: null,
  status: 'pending',
  leaseUntil: null,
  expiresAt: NOW + 300_000,
  createdAt: NOW,
  ...change,
});

const claimOf = (state: AuthenticationState, change: Partial<BoundClaim> = {}): BoundClaim => ({
  stateHash: state.stateHash,
  userId: state.userId,
  vendor: state.vendor,
  document: state.document,
  provider: state.provider,
  assignmentId: state.assignmentId,
  now: NOW,
  leaseUntil: LEASE_UNTIL,
  ...change,
});

// claimBound is the second call's one-statement fast path: it must claim exactly when
// checkBinding says "complete" and the lease is free, and otherwise change nothing.
describeEachEngine('AuthenticationStateStore.claimBound contract', (engine) => {
  let testDb: TestDatabase;
  let database: Database;
  let store: KyselyAuthenticationStateStore;
  const assignmentId = randomUUID();
  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    database = await openMigratedDatabase(testDb.target);
    store = new KyselyAuthenticationStateStore(database);
    await database.db
      .insertInto('assignments')
      .values({ id: assignmentId, user_id: 'user-1', certificate_vendor: 'VENDOR_A', created_at: NOW })
      .execute();
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  describe.each<[string, Partial<AuthenticationState>, Partial<BoundClaim>, boolean]>([
    ['a pending state bound to this call', {}, {}, true],
    ['a pending state with this assignment', { assignmentId: 'ASSIGNMENT' }, {}, true],
    ['a completing state whose lease ran out', { status: 'completing', leaseUntil: NOW - 1 }, {}, true],
    ['another user', {}, { userId: 'user-2' }, false],
    ['another vendor', {}, { vendor: 'VENDOR_B' }, false],
    ['another document', {}, { document: 'resident-abstract' }, false],
    ['another provider', {}, { provider: 'provider_b' }, false],
    ['an assignment the state was not started with', {}, { assignmentId: 'ASSIGNMENT' }, false],
    ['no assignment for a state started with one', { assignmentId: 'ASSIGNMENT' }, { assignmentId: null }, false],
    ['an unknown state hash', {}, { stateHash: 'unknown' }, false],
    ['a state at its expiry', { expiresAt: NOW }, {}, false],
    ['an issued state', { status: 'issued' }, {}, false],
    ['a completing state whose lease still runs', { status: 'completing', leaseUntil: NOW + 1 }, {}, false],
  ])('%s', (_name, stateChange, claimChange, claims) => {
    it(claims ? 'is claimed' : 'is not claimed, and nothing changes', async () => {
      const resolve = <T extends { assignmentId?: string | null }>(change: T): T =>
        change.assignmentId === 'ASSIGNMENT' ? { ...change, assignmentId } : change;
      const state = recorded(resolve(stateChange));
      await store.record(state);
      const claimedId = await store.claimBound(claimOf(state, resolve(claimChange)));
      const after = await store.findByHash(state.stateHash);
      if (claims) {
        expect(claimedId).toBe(state.id);
        expect(after).toEqual({ ...state, status: 'completing', leaseUntil: LEASE_UNTIL });
      } else {
        expect(claimedId).toBeUndefined();
        expect(after).toEqual(state);
      }
    });
  });

  it('exactly one of several concurrent claims gets the lease', async () => {
    const state = recorded();
    await store.record(state);
    const results = await Promise.all(Array.from({ length: 8 }, () => store.claimBound(claimOf(state))));
    expect(results.filter((id) => id === state.id)).toHaveLength(1);
    expect(results.filter((id) => id === undefined)).toHaveLength(7);
  });

  it('finds a state by its id, as recorded, and nothing for an unknown id', async () => {
    const state = recorded({ assignmentId });
    await store.record(state);
    expect(await store.findById(state.id)).toEqual(state);
    expect(await store.findById(randomUUID())).toBeUndefined();
  });
});
