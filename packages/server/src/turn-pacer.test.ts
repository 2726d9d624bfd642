import { describe, expect, it } from 'vitest';
import { WAKE_SLICE } from './single-flight.js';
import { TurnBudget, TurnPacer } from './turn-pacer.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

it('lets callers through a slice per event-loop turn, in the order they came', async () => {
  const pacer = new TurnPacer();
  const through: number[] = [];
  const all = Array.from({ length: WAKE_SLICE * 2 + 1 }, (_, i) => pacer.turn().then(() => through.push(i)));
  expect(through).toHaveLength(0);
  await turn();
  expect(through.length).toBeGreaterThanOrEqual(WAKE_SLICE);
  expect(through.length).toBeLessThan(WAKE_SLICE * 2 + 1);
  await Promise.all(all);
  expect(through).toEqual([...through].sort((a, b) => a - b));
  // Idle again: a later caller is let through on the next turn.
  await pacer.turn();
});

describe('TurnBudget', () => {
  it('says yes perTurn times in a turn, then no until the next turn', async () => {
    const budget = new TurnBudget(3);
    expect([budget.take(), budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(budget.take()).toBe(true);
  });
});
