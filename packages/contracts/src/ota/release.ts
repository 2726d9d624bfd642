import { z } from 'zod';
import { isStorableText, lineText } from '../text.js';
import { DEFAULT_APP } from './apps.js';
import { Channel } from './channel.js';
import {
  assetKeyProblem,
  assetUrlProblem,
  conflictingAssetKeys,
  FILE_EXTENSION_PATTERN,
  isSha256Base64Url,
} from './client-asset-rules.js';
import { Platform } from './platform.js';
import { GroupId } from './release-group.js';
import { RolloutRequest } from './rollout.js';
import { RuntimeVersion } from './runtime-version.js';
import { UpdatePolicySchema } from './update-policy-schema.js';

/** Unpadded base64url SHA-256, the hash the Expo Updates protocol v1 uses. */
export const AssetHash = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'hash must be the unpadded base64url SHA-256 of the file (43 characters)');

/**
 * Request text is one line of well-formed Unicode (no control character, no lone surrogate):
 * PostgreSQL refuses both in text and JSONB, so they must be refused as a 400 before they reach a
 * query. Schemas of answers keep plain strings, so a record an earlier version stored still reads back.
 */
const shortLine = (max: number) => lineText().max(max);

/** The fileExtension of an asset: a dot and 1–32 letters or digits (a safe part of a file name). */
export const FileExtension = z
  .string()
  .regex(FILE_EXTENSION_PATTERN, 'fileExtension must be a dot and 1-32 letters or digits');

/** A check of client-asset-rules.ts as a zod refinement on one field. */
const problemOf =
  (problem: (value: string) => string | undefined) =>
  (value: string, ctx: z.RefinementCtx): void => {
    const message = problem(value);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message });
  };

/** An asset key as a publisher sends it: one line the client can store the asset under. */
export const AssetKey = shortLine(255).superRefine(problemOf(assetKeyProblem));

// zod's URL check drops tab and line breaks (as URL parsing does) but keeps other controls.
const storedUrl = () =>
  z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .refine((value) => isStorableText(value), { message: 'must not contain control characters or lone surrogates' });

/**
 * A launch asset or asset as a publisher sends it. Only url and hash are required by the spec; what
 * is sent must be what expo-updates accepts (client-asset-rules.ts), or no device would apply the release.
 */
export const ReleaseAsset = z.object({
  url: storedUrl().superRefine(problemOf(assetUrlProblem)),
  hash: AssetHash.refine(isSha256Base64Url, {
    message: 'hash must be the unpadded base64url SHA-256 of the file; no SHA-256 ends with this last character',
  }),
  key: AssetKey.optional(),
  contentType: shortLine(255).min(1).optional(),
  fileExtension: FileExtension.optional(),
});
export type ReleaseAsset = z.infer<typeof ReleaseAsset>;

/**
 * An asset as a release stored it, in answers: the rules of its day. Releases stored before the
 * client's rules were checked must still read back. What identifies the asset is its hash (under
 * the release's channel and runtimeVersion); `url` is the one the release was given at publish. A
 * manifest never sends devices there: it builds the URL from the server's current configuration.
 */
export const StoredReleaseAsset = z.object({
  url: storedUrl(),
  hash: AssetHash,
  key: z.string().max(255).optional(),
  contentType: z.string().max(255).optional(),
  fileExtension: z
    .string()
    .regex(/^\.[A-Za-z0-9]{1,32}$/, 'fileExtension must start with a dot')
    .optional(),
});

/** What a publisher knows of an asset before the server assigns its URL (`ferry publish` checks it before uploading). */
export const PlannedReleaseAsset = ReleaseAsset.omit({ url: true });
export type PlannedReleaseAssetInput = z.input<typeof PlannedReleaseAsset>;

/** The longest release message (`ferry publish --message`, by default the commit subject). */
export const RELEASE_MESSAGE_MAX_LENGTH = 1024;

/**
 * Who published, from where, and why: free-form but bounded. `text` is lineText for requests. The
 * message is one line like the others; it is never put in the public manifest.
 */
const metadataFields = (text: () => z.ZodString) => ({
  commit: text().max(255).optional(),
  branch: text().max(255).optional(),
  actor: text().max(255).optional(),
  runId: text().max(255).optional(),
  message: text().max(RELEASE_MESSAGE_MAX_LENGTH).optional(),
});
export const ReleaseMetadataInput = z.object(metadataFields(lineText)).strict();

/** The fingerprint a publisher sends: one line. */
export const Fingerprint = lineText().min(1).max(255);
/** A fingerprint in an answer: whatever was stored. */
const StoredFingerprint = z.string().min(1).max(255);

/** Deeper than any app config; bounds the walk below and the JSON the release is stored as. */
export const OTA_CONFIG_MAX_DEPTH = 32;
/** A body full of bad strings gets the first few named, not an answer larger than itself. */
const OTA_CONFIG_MAX_ISSUES = 10;

/**
 * Walks a JSON value without recursion (a hostile body may nest deeply): keys must be one line,
 * string values may keep tab and line breaks (a description), neither may hold a lone surrogate,
 * numbers are finite, and nesting is bounded (JSON.stringify and PostgreSQL's JSONB parser recurse).
 */
function checkConfigTree(root: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const pending: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: root, path: [] }];
  let issues = 0;
  const addIssue = (path: PropertyKey[], message: string) => {
    issues++;
    ctx.addIssue({ code: 'custom', path, message });
  };
  for (let next = pending.pop(); next !== undefined && issues < OTA_CONFIG_MAX_ISSUES; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (!isStorableText(value, true)) {
        addIssue(path, 'must not contain control characters other than tab and line breaks, or lone surrogates');
      }
      continue;
    }
    // 1e999 is JSON text but no JSON value: it would parse to Infinity and be stored as null.
    if (typeof value === 'number' && !Number.isFinite(value)) {
      addIssue(path, 'must be a finite number');
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= OTA_CONFIG_MAX_DEPTH) {
      addIssue(path, `must not nest deeper than ${OTA_CONFIG_MAX_DEPTH} levels`);
      continue;
    }
    const entries: Array<[PropertyKey, unknown]> = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      if (typeof key === 'string' && !isStorableText(key)) {
        // The path names the key escaped, so the answer does not carry the character itself.
        addIssue(
          [...path, JSON.stringify(key).slice(1, -1)],
          'keys must not contain control characters or lone surrogates',
        );
        continue;
      }
      pending.push({ value: item, path: [...path, key] });
    }
  }
}

/** The public app config; served as extra.<ns>Client. */
export const OtaConfig = z.record(z.string(), z.unknown()).superRefine(checkConfigTree);

/**
 * Two assets under one key with different hashes: the client downloads one file per key, so one of
 * them would never reach the device (conflictingAssetKeys).
 */
interface KeyedAssets {
  launchAsset: { key?: string; hash: string };
  assets: Array<{ key?: string; hash: string }>;
}
function checkAssetKeys(release: KeyedAssets, ctx: z.RefinementCtx): void {
  for (const index of conflictingAssetKeys([release.launchAsset, ...release.assets])) {
    ctx.addIssue({
      code: 'custom',
      path: index === 0 ? ['launchAsset', 'key'] : ['assets', index - 1, 'key'],
      message:
        'is also the key of another asset of this release with a different hash: expo-updates keeps one file per key, so this asset would never reach the device',
    });
  }
}

/** The release body, with the asset shape given: sent (with URLs), or planned (before the upload). */
const releasePayloadOf = <A extends z.ZodType<{ key?: string; hash: string }>>(asset: A) =>
  z
    .object({
      channel: Channel,
      platform: Platform,
      runtimeVersion: RuntimeVersion,
      launchAsset: asset,
      assets: z.array(asset).max(10_000).default([]),
      otaConfig: OtaConfig.nullish(),
      updatePolicy: UpdatePolicySchema.nullish(),
      fingerprint: Fingerprint.nullish(),
      allowNativeChange: z.boolean().optional(),
      metadata: ReleaseMetadataInput.optional(),
      /** A share of devices (issue 18); without it the release reaches every device at once. */
      rollout: RolloutRequest.optional(),
      /**
       * The release group this release belongs to: `ferry publish` sends one new id for the releases
       * of both platforms it makes from one export. Without it the server makes a group of one.
       */
      groupId: GroupId.optional(),
    })
    .strict()
    // Both asset shapes have key and hash; TypeScript cannot see it through the generic parameter.
    .superRefine((release, ctx) => checkAssetKeys(release as unknown as KeyedAssets, ctx));

export const ReleasePayload = releasePayloadOf(ReleaseAsset);
export type ReleasePayload = z.infer<typeof ReleasePayload>;
export type ReleasePayloadInput = z.input<typeof ReleasePayload>;

/**
 * A release as `ferry publish` plans it before uploading: the payload without asset URLs (the
 * server assigns them). Everything else is checked as the server will check it, so a release the
 * server would refuse is refused before a byte is uploaded.
 */
export const ReleasePlan = releasePayloadOf(PlannedReleaseAsset);
export type ReleasePlanInput = z.input<typeof ReleasePlan>;

/** metadata as stored: the publisher's metadata plus the fingerprint that becomes the next baseline. */
export const ReleaseMetadata = z
  .object({
    ...metadataFields(z.string),
    fingerprint: StoredFingerprint.nullish(),
    rolledBackFrom: z.uuid().optional(),
    /** A promotion's copy names the release it was promoted from (on another channel). */
    promotedFrom: z.uuid().optional(),
  })
  .strict();
export type ReleaseMetadata = z.infer<typeof ReleaseMetadata>;

export const Release = z.object({
  id: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  launchAsset: StoredReleaseAsset,
  assets: z.array(StoredReleaseAsset),
  otaConfig: OtaConfig.nullable(),
  updatePolicy: UpdatePolicySchema.nullable(),
  metadata: ReleaseMetadata,
  createdAt: z.iso.datetime(),
  /** Null for releases stored before release groups existed. */
  groupId: GroupId.nullable().default(null),
  /** The app it belongs to (docs/apps.md); a server from before apps sends none: its one app is the default. */
  app: z.string().default(DEFAULT_APP),
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
  fingerprint: StoredFingerprint.nullable(),
  /**
   * The release group (the releases one publish made of both platforms); null before groups
   * existed, and from a server older than them.
   */
  groupId: GroupId.nullable().default(null),
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
  fingerprint: StoredFingerprint.nullable(),
  releaseId: z.uuid(),
  createdAt: z.iso.datetime(),
});
export type BaselineResponse = z.infer<typeof BaselineResponse>;
