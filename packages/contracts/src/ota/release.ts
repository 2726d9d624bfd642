import { z } from 'zod';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { RuntimeVersion } from './runtime-version.js';
import { UpdatePolicySchema } from './update-policy-schema.js';

/** Unpadded base64url SHA-256, the hash the Expo Updates protocol v1 uses. */
export const AssetHash = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'hash must be the unpadded base64url SHA-256 of the file (43 characters)');

const shortText = (max: number) => z.string().max(max);

/** A launch asset or asset as a release stores it. Only url and hash are required by the spec. */
export const ReleaseAsset = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  hash: AssetHash,
  key: shortText(255).optional(),
  contentType: shortText(255).optional(),
  fileExtension: z
    .string()
    .regex(/^\.[A-Za-z0-9]{1,32}$/, 'fileExtension must start with a dot')
    .optional(),
});
export type ReleaseAsset = z.infer<typeof ReleaseAsset>;

/** Who published, from where: free-form but bounded. */
export const ReleaseMetadataInput = z
  .object({
    commit: shortText(255).optional(),
    branch: shortText(255).optional(),
    actor: shortText(255).optional(),
    runId: shortText(255).optional(),
  })
  .strict();

export const Fingerprint = z.string().min(1).max(255);

/** The public app config; served as extra.<ns>Client. */
export const OtaConfig = z.record(z.string(), z.unknown());

export const ReleasePayload = z
  .object({
    channel: Channel,
    platform: Platform,
    runtimeVersion: RuntimeVersion,
    launchAsset: ReleaseAsset,
    assets: z.array(ReleaseAsset).max(10_000).default([]),
    otaConfig: OtaConfig.nullish(),
    updatePolicy: UpdatePolicySchema.nullish(),
    fingerprint: Fingerprint.nullish(),
    allowNativeChange: z.boolean().optional(),
    metadata: ReleaseMetadataInput.optional(),
  })
  .strict();
export type ReleasePayload = z.infer<typeof ReleasePayload>;
export type ReleasePayloadInput = z.input<typeof ReleasePayload>;

/** metadata as stored: the publisher's metadata plus the fingerprint that becomes the next baseline. */
export const ReleaseMetadata = ReleaseMetadataInput.extend({
  fingerprint: Fingerprint.nullish(),
  rolledBackFrom: z.uuid().optional(),
});
export type ReleaseMetadata = z.infer<typeof ReleaseMetadata>;

export const Release = z.object({
  id: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  launchAsset: ReleaseAsset,
  assets: z.array(ReleaseAsset),
  otaConfig: OtaConfig.nullable(),
  updatePolicy: UpdatePolicySchema.nullable(),
  metadata: ReleaseMetadata,
  createdAt: z.iso.datetime(),
});
export type Release = z.infer<typeof Release>;

/** The 201 body of POST /api/updates/release. */
export const ReleaseSummary = z.object({
  id: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  createdAt: z.iso.datetime(),
  updatePolicy: UpdatePolicySchema.nullable(),
  fingerprint: Fingerprint.nullable(),
});
export type ReleaseSummary = z.infer<typeof ReleaseSummary>;

export const ReleaseCreatedResponse = z.object({ release: ReleaseSummary });
export type ReleaseCreatedResponse = z.infer<typeof ReleaseCreatedResponse>;

/** A track is the unit the guard and the manifest work on. */
export const Track = z.object({ channel: Channel, platform: Platform, runtimeVersion: RuntimeVersion });
export type Track = z.infer<typeof Track>;

/** channel defaults to production: the baseline is the production record the gate compares with. */
export const BaselineQuery = Track.extend({ channel: Channel.default('production') });
export const BaselineResponse = z.object({
  fingerprint: Fingerprint.nullable(),
  releaseId: z.uuid(),
  createdAt: z.iso.datetime(),
});
export type BaselineResponse = z.infer<typeof BaselineResponse>;
