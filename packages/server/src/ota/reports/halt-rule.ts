import type { HaltRule, RolloutHealth } from '@ferry/contracts';

/**
 * Whether a running rollout must stop: once at least `minDevices` devices received the release,
 * a failure rate at or above the rule's halts it. "At or above", not "above": with a rule of 2 %
 * and 100 devices, the second failure already halts (stopping early is the safe mistake).
 */
export function shouldHalt(rule: HaltRule, health: RolloutHealth): boolean {
  return health.received >= rule.minDevices && health.failed / health.received >= rule.failureRate;
}

/** The sentence the audit event, the API and the CLI show for a halt. */
export const haltReason = (rule: HaltRule, health: RolloutHealth): string =>
  `${health.failed} of ${health.received} devices reported the update failed ` +
  `(${percent(health.failed / health.received)}, rule: ${percent(rule.failureRate)} once ${rule.minDevices} devices received it)`;

const percent = (fraction: number) => `${Number((fraction * 100).toFixed(2))} %`;
