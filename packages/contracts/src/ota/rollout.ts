import { z } from 'zod';
import { lineText } from '../text.js';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { RuntimeVersion } from './runtime-version.js';

/**
 * Staged rollouts (issue 18). A release published with a rollout reaches `percent` of the devices
 * that send a client id; the others, and devices without one, get the track's fallback: its newest
 * complete entry (a release without a rollout or with a completed one, or a directive).
 */
export const ROLLOUT_STATES = ['running', 'complete', 'reverted', 'halted', 'superseded'] as const;
export const RolloutState = z.enum(ROLLOUT_STATES);
export type RolloutState = z.infer<typeof RolloutState>;

/** A share of devices: a whole percent. 100 is a complete rollout, 0 reaches nobody. */
export const RolloutPercent = z.coerce
  .number()
  .int('the rollout percent must be a whole number')
  .min(1, 'the rollout percent must be at least 1')
  .max(100, 'the rollout percent must be at most 100');

/**
 * Halts a running rollout when, among the devices that received the release (they ran it or
 * reported it failed), `failureRate` (a fraction, 0.02 for 2 %) or more reported it failed, once at
 * least `minDevices` devices received it.
 */
export const HaltRule = z
  .object({
    failureRate: z
      .number()
      .gt(0, 'the failure rate must be above 0')
      .max(1, 'the failure rate is a fraction, at most 1'),
    minDevices: z.number().int().min(1, 'the minimum device count must be at least 1').max(10_000_000).default(100),
  })
  .strict();
export type HaltRule = z.infer<typeof HaltRule>;
export type HaltRuleInput = z.input<typeof HaltRule>;

/** `rollout` in a release payload. */
export const RolloutRequest = z.object({ percent: RolloutPercent, haltRule: HaltRule.optional() }).strict();
export type RolloutRequest = z.infer<typeof RolloutRequest>;

const who = lineText().min(1).max(255);

/** POST /api/updates/rollouts/:releaseId: change the share, complete, or revert. */
export const RolloutChange = z.discriminatedUnion('action', [
  z
    .object({ action: z.literal('percent'), percent: RolloutPercent, actor: who.optional(), runId: who.optional() })
    .strict(),
  z.object({ action: z.literal('complete'), actor: who.optional(), runId: who.optional() }).strict(),
  z.object({ action: z.literal('revert'), actor: who.optional(), runId: who.optional() }).strict(),
]);
export type RolloutChange = z.infer<typeof RolloutChange>;

export const RolloutParams = z.object({ releaseId: z.uuid() }).strict();

/** Distinct devices, by the SHA-256 of their client id; `received` = ran it or reported it failed. */
export const RolloutHealth = z.object({
  received: z.number().int().min(0),
  failed: z.number().int().min(0),
  failureRate: z.number().min(0).max(1).nullable(),
});
export type RolloutHealth = z.infer<typeof RolloutHealth>;

/** A rollout as the API and `ferry rollout` show it. */
export const RolloutView = z.object({
  releaseId: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  percent: z.number().int().min(0).max(100),
  state: RolloutState,
  haltRule: HaltRule.nullable(),
  /** Why a rollout was halted (the rule and the figures), reverted or superseded. */
  reason: z.string().nullable(),
  updatedAt: z.iso.datetime(),
  health: RolloutHealth,
});
export type RolloutView = z.infer<typeof RolloutView>;

export const RolloutResponse = z.object({ rollout: RolloutView });
export type RolloutResponse = z.infer<typeof RolloutResponse>;

/** POST /api/updates/directives: devices of the track go back to their build's embedded bundle. */
export const DirectiveRequest = z
  .object({
    channel: Channel,
    platform: Platform,
    runtimeVersion: RuntimeVersion,
    type: z.literal('rollBackToEmbedded'),
    actor: who.optional(),
    runId: who.optional(),
  })
  .strict();
export type DirectiveRequest = z.infer<typeof DirectiveRequest>;

export const DirectiveView = z.object({
  id: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  type: z.literal('rollBackToEmbedded'),
  /** The directive's commitTime (the protocol's `parameters.commitTime`). */
  createdAt: z.iso.datetime(),
  actor: z.string(),
});
export type DirectiveView = z.infer<typeof DirectiveView>;

export const DirectiveCreatedResponse = z.object({ directive: DirectiveView });
export type DirectiveCreatedResponse = z.infer<typeof DirectiveCreatedResponse>;

/** Distinct devices that ran an update, from the client id and current update id of their checks. */
export const Adoption = z.object({ last24h: z.number().int().min(0), last7d: z.number().int().min(0) });
export type Adoption = z.infer<typeof Adoption>;
