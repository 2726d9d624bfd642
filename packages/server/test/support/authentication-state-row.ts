import type { RawBuilder } from 'kysely';

/**
 * A pending certificate authentication state as tests insert it directly: the table every test of
 * the database handles writes to. `id` may be an SQL expression (what the writing statement saw).
 */
export const pendingStateRow = (id: string | RawBuilder<string>, stateHash: string) => ({
  id,
  state_hash: stateHash,
  user_id: 'u',
  vendor: 'VENDOR_A',
  document: 'resident-certificate',
  provider: 'provider_a',
  assignment_id: null,
  status: 'pending' as const,
  lease_until: null,
  expires_at: Date.now() + 60_000,
  created_at: Date.now(),
});
