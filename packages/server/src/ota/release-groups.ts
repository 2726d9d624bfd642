import type { Release } from '@ferry/contracts';
import { DomainError } from '../errors/domain-error.js';
import { GroupActionRefused, GroupNotFound } from './ota-errors.js';
import type { ReleaseStore } from './release-store.js';

/** A group's releases (in the order of PLATFORMS), or 404 when none has that group. */
export async function groupMembers(
  store: Pick<ReleaseStore, 'group'>,
  app: string,
  groupId: string,
): Promise<Release[]> {
  const members = await store.group(app, groupId);
  if (members.length === 0) throw new GroupNotFound(groupId);
  return members;
}

/**
 * Runs a group action's part for each of its releases, one after another (inside one transaction
 * they share one connection). A refusal of one platform becomes the group's refusal, naming that
 * platform; the caller's transaction then keeps nothing of any platform.
 */
export async function eachPlatform<T>(
  /** The group acted on; undefined for one release named by itself, whose refusal stays its own. */
  groupId: string | undefined,
  members: readonly Release[],
  work: (member: Release, index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const [index, member] of members.entries()) {
    try {
      results.push(await work(member, index));
    } catch (error) {
      if (groupId !== undefined && error instanceof DomainError && !(error instanceof GroupActionRefused)) {
        throw new GroupActionRefused(groupId, member.platform, error);
      }
      throw error;
    }
  }
  return results;
}

/** A unique index refused the insert (PostgreSQL 23505, SQLite's SQLITE_CONSTRAINT_UNIQUE). */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};
