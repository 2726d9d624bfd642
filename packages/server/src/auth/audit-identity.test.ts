import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { actAs, currentAuditIdentity } from './audit-identity.js';

const operator = (name: string) =>
  ({
    operator: { kind: 'token', id: `id-${name}`, name, role: 'releaser', via: 'bearer' },
  }) as unknown as FastifyRequest;

// The storage is switched off between actions (it slows every async operation while on): each
// action still sees its own identity, also when actions overlap and one ends before the other.
describe('actAs', () => {
  it('gives the action its operator, and nothing outside an action', async () => {
    const seen = await actAs(operator('alice'), undefined, async (actor) => {
      await new Promise((resolve) => setImmediate(resolve));
      return { actor, identity: currentAuditIdentity() };
    });
    expect(seen.actor).toBe('operator:alice');
    expect(seen.identity).toMatchObject({ operator: { id: 'id-alice' } });
    expect(currentAuditIdentity()).toEqual({});
  });

  it('keeps each overlapping action its own identity when the first ends before the second', async () => {
    let releaseBob!: () => void;
    const bobMayFinish = new Promise<void>((resolve) => {
      releaseBob = resolve;
    });
    const bob = actAs(operator('bob'), undefined, async () => {
      await bobMayFinish;
      await new Promise((resolve) => setImmediate(resolve));
      return currentAuditIdentity();
    });
    const carol = await actAs(operator('carol'), undefined, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentAuditIdentity();
    });
    releaseBob();
    expect(carol).toMatchObject({ operator: { id: 'id-carol' } });
    expect(await bob).toMatchObject({ operator: { id: 'id-bob' } });
    // And again after the storage was switched off.
    expect(await actAs(operator('dan'), undefined, async () => currentAuditIdentity())).toMatchObject({
      operator: { id: 'id-dan' },
    });
    expect(currentAuditIdentity()).toEqual({});
  });

  it('switches the storage off even when the action fails', async () => {
    await expect(
      actAs(operator('erin'), undefined, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(currentAuditIdentity()).toEqual({});
    expect(await actAs(operator('fay'), undefined, async () => currentAuditIdentity())).toMatchObject({
      operator: { id: 'id-fay' },
    });
  });
});
