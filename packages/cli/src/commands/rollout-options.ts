import { HaltRule, RolloutPercent, type RolloutRequest } from '@ferry/contracts';
import { InvalidArgumentError } from 'commander';
import { CliError } from '../cli-error.js';

/** `--rollout 10` / `--percent 10`: a whole percent from 1 to 100, as the server checks it. */
export function parsePercent(raw: string): number {
  const parsed = RolloutPercent.safeParse(raw.trim().replace(/%$/, ''));
  if (!parsed.success) throw new InvalidArgumentError('a whole percent from 1 to 100, e.g. 10');
  return parsed.data;
}

/**
 * `--halt-on-failure-rate 2%` (or the fraction 0.02). A bare number above 1 is refused rather than
 * guessed: "2" could mean 2 % or a typo of 0.2.
 */
export function parseFailureRate(raw: string): number {
  const text = raw.trim();
  const percent = text.endsWith('%');
  const value = Number(percent ? text.slice(0, -1) : text);
  const rate = percent ? value / 100 : value;
  if (text === '' || text === '%' || !Number.isFinite(value) || !(rate > 0) || rate > 1) {
    throw new InvalidArgumentError('a failure rate such as 2% (or the fraction 0.02), above 0 and at most 100%');
  }
  return rate;
}

/** `--halt-min-devices 100`. */
export function parseMinDevices(raw: string): number {
  const parsed = HaltRule.shape.minDevices.safeParse(Number(raw));
  if (!/^\d+$/.test(raw.trim()) || !parsed.success)
    throw new InvalidArgumentError('a whole number of devices, at least 1');
  return parsed.data;
}

/** The rollout of a publish from its options; a halt rule without a rollout is a mistake, not ignored. */
export function rolloutRequest(options: {
  rollout?: number;
  haltOnFailureRate?: number;
  haltMinDevices?: number;
}): RolloutRequest | undefined {
  if (options.rollout === undefined) {
    if (options.haltOnFailureRate !== undefined || options.haltMinDevices !== undefined) {
      throw new CliError('--halt-on-failure-rate and --halt-min-devices need --rollout <percent>');
    }
    return undefined;
  }
  if (options.haltMinDevices !== undefined && options.haltOnFailureRate === undefined) {
    throw new CliError('--halt-min-devices needs --halt-on-failure-rate');
  }
  return {
    percent: options.rollout,
    ...(options.haltOnFailureRate === undefined
      ? {}
      : { haltRule: HaltRule.parse({ failureRate: options.haltOnFailureRate, minDevices: options.haltMinDevices }) }),
  };
}
