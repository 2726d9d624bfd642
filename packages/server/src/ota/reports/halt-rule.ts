import type { HaltRule, RolloutHealth } from '@ferry/contracts';

// When a rollout halts is `shouldHalt` in @ferry/contracts (ota/halt-rule.ts), which the console
// reads too; this is the sentence a halt is explained with.

/** The sentence the audit event, the API and the CLI show for a halt. */
export const haltReason = (rule: HaltRule, health: RolloutHealth): string =>
  `${health.failed} of ${health.received} devices reported the update failed ` +
  `(${percent(health.failed / health.received)}, rule: ${percent(rule.failureRate)} once ${rule.minDevices} devices received it)`;

const percent = (fraction: number) => `${Number((fraction * 100).toFixed(2))} %`;
