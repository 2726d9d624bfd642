import { type ConsoleHealth, type ConsoleRollout, type HaltRule, shouldHalt } from '@ferry/contracts';

/**
 * How risky widening a rollout is, from what its devices reported: `healthy` (no failure),
 * `failures` (some device reported it failed), or `past-halt-rule` (halted, or at or past the rule
 * that halts it: the server's own `shouldHalt`). Anything but healthy is shown next to the controls,
 * pre-fills no new share, and needs an explicit acknowledgement before the share grows.
 */
export type RolloutRisk =
  | { kind: 'healthy' }
  | { kind: 'failures'; failed: number; received: number }
  | { kind: 'past-halt-rule'; failed: number; received: number; rule: HaltRule | null };

export function rolloutRisk(rollout: Pick<ConsoleRollout, 'state' | 'haltRule'>, health: ConsoleHealth): RolloutRisk {
  const { failed, received } = health;
  if (rollout.state === 'halted' || (rollout.haltRule !== null && shouldHalt(rollout.haltRule, health))) {
    return { kind: 'past-halt-rule', failed, received, rule: rollout.haltRule };
  }
  if (failed > 0) return { kind: 'failures', failed, received };
  return { kind: 'healthy' };
}

/**
 * The share the controls offer first: double the current one (10 % from none) while the rollout
 * is healthy, and nothing otherwise, so that widening a failing release is always typed, never a
 * pre-filled "Set to 100 %".
 */
export const suggestedShare = (percent: number, risk: RolloutRisk): string =>
  risk.kind === 'healthy' ? String(Math.min(100, percent * 2 || 10)) : '';
