import { z } from 'zod';
import { lineText } from '../text.js';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { checkTarget, GroupId } from './release-group.js';
import { RuntimeVersion } from './runtime-version.js';
import type { TrackKey } from './track.js';

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

/**
 * The changes a running or halted rollout takes: a new share (100 completes it; a halted rollout
 * runs again at it), complete, halt (nobody else gets the release; one already halted stays so),
 * resume (a halted rollout runs again at its share; one running stays so), revert (the fallback is
 * published again, so every device moves back).
 */
export const ROLLOUT_ACTIONS = ['percent', 'complete', 'halt', 'resume', 'revert'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

const rolloutChanges = <Extra extends z.ZodRawShape>(extra: Extra) => {
  const fields = { actor: who.optional(), runId: who.optional(), ...extra };
  return z.discriminatedUnion('action', [
    z.object({ action: z.literal('percent'), percent: RolloutPercent, ...fields }).strict(),
    z.object({ action: z.literal('complete'), ...fields }).strict(),
    z.object({ action: z.literal('halt'), ...fields }).strict(),
    z.object({ action: z.literal('resume'), ...fields }).strict(),
    z.object({ action: z.literal('revert'), ...fields }).strict(),
  ]);
};

/** POST /api/updates/rollouts/:releaseId: change one release's rollout. */
export const RolloutChange = rolloutChanges({});
export type RolloutChange = z.infer<typeof RolloutChange>;

/**
 * POST /api/updates/rollouts: the same change to the rollout of every release of a release group,
 * in one transaction. When one platform's rollout cannot take it, nothing changes and the refusal
 * names that platform.
 */
export const GroupRolloutChange = rolloutChanges({ groupId: GroupId });
export type GroupRolloutChange = z.infer<typeof GroupRolloutChange>;

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

/** The rollouts of a group's releases after a change, one per platform. */
export const GroupRolloutResponse = z.object({ groupId: GroupId, rollouts: z.array(RolloutView) });
export type GroupRolloutResponse = z.infer<typeof GroupRolloutResponse>;

/**
 * POST /api/updates/directives: devices of a track (channel, platform, runtimeVersion), or of the
 * tracks of every release of a release group (groupId), go back to their build's embedded bundle.
 */
export const DirectiveRequest = z
  .object({
    channel: Channel.optional(),
    platform: Platform.optional(),
    runtimeVersion: RuntimeVersion.optional(),
    groupId: GroupId.optional(),
    type: z.literal('rollBackToEmbedded'),
    actor: who.optional(),
    runId: who.optional(),
  })
  .strict()
  .superRefine((body, ctx) => checkTarget(body, ctx));
export type DirectiveRequest = z.infer<typeof DirectiveRequest>;
/** A roll back to embedded of one track. */
export type TrackDirectiveRequest = TrackKey & Pick<DirectiveRequest, 'type' | 'actor' | 'runId'>;

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

/** 201 for a track: its directive. */
export const TrackDirectiveResponse = z.object({ directive: DirectiveView });
/** 201 for a group: one directive per platform, made in one transaction. */
export const GroupDirectiveResponse = z.object({ groupId: GroupId, directives: z.array(DirectiveView) });
export const DirectiveCreatedResponse = z.union([TrackDirectiveResponse, GroupDirectiveResponse]);
export type DirectiveCreatedResponse = z.infer<typeof DirectiveCreatedResponse>;

/** Distinct devices that ran an update, from the client id and current update id of their checks. */
export const Adoption = z.object({ last24h: z.number().int().min(0), last7d: z.number().int().min(0) });
export type Adoption = z.infer<typeof Adoption>;

/** Which of the two a checked directive body is. */
export function directiveTarget(
  body: DirectiveRequest,
):
  | { kind: 'track'; request: TrackDirectiveRequest }
  | { kind: 'group'; groupId: string; request: Pick<DirectiveRequest, 'type' | 'actor' | 'runId'> } {
  const { channel, platform, runtimeVersion, groupId, type, actor, runId } = body;
  const rest = { type, ...(actor === undefined ? {} : { actor }), ...(runId === undefined ? {} : { runId }) };
  if (groupId !== undefined) return { kind: 'group', groupId, request: rest };
  if (channel === undefined || platform === undefined || runtimeVersion === undefined) {
    throw new TypeError('a directive body names a track or a group (DirectiveRequest checks it)');
  }
  return { kind: 'track', request: { channel, platform, runtimeVersion, ...rest } };
}
