import type { HaltRule } from './rollout.js';

/**
 * Whether a running rollout must stop: once at least `minDevices` devices received the release,
 * a failure rate at or above the rule's halts it. "At or above", not "above": with a rule of 2 %
 * and 100 devices, the second failure already halts (stopping early is the safe mistake). The
 * server halts on it; the console warns before widening a rollout it holds for.
 */
export function shouldHalt(rule: HaltRule, health: { received: number; failed: number }): boolean {
  return health.received >= rule.minDevices && health.failed / health.received >= rule.failureRate;
}
