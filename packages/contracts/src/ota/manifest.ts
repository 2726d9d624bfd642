import { z } from 'zod';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { AssetHash } from './release.js';
import { RuntimeVersion } from './runtime-version.js';

/**
 * The spec writes identifiers with `ota`; a real expo-updates client uses `expo`. The manifest
 * endpoint answers in the namespace the request used (decisions.md §3).
 */
export const MANIFEST_NAMESPACES = ['ota', 'expo'] as const;
export const ManifestNamespace = z.enum(MANIFEST_NAMESPACES);
export type ManifestNamespace = z.infer<typeof ManifestNamespace>;

/** Request and response header names of one namespace. */
export const manifestHeaders = (ns: ManifestNamespace) =>
  ({
    platform: `${ns}-platform`,
    runtimeVersion: `${ns}-runtime-version`,
    channel: `${ns}-channel-name`,
    currentUpdateId: `${ns}-current-update-id`,
    embeddedUpdateId: `${ns}-embedded-update-id`,
    protocolVersion: `${ns}-protocol-version`,
    expectSignature: `${ns}-expect-signature`,
    signature: `${ns}-signature`,
    sfvVersion: `${ns}-sfv-version`,
  }) as const;

/** The only protocol version served; requests may omit the header. */
export const MANIFEST_PROTOCOL_VERSION = '1';
export const MANIFEST_SIGNATURE_ALGORITHM = 'rsa-v1_5-sha256';

/** What the manifest endpoint reads from the request headers, namespace stripped. */
export const ManifestRequest = z.object({
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  channel: Channel,
  /**
   * The update the app runs now (its embedded update on a fresh install). Any 8-4-4-4-12 hex id,
   * compared case-insensitively: other servers' ids need not be RFC 4122 UUIDs.
   */
  currentUpdateId: z.guid('must be an update id (8-4-4-4-12 hex)').optional(),
  embeddedUpdateId: z.guid('must be an update id (8-4-4-4-12 hex)').optional(),
});
export type ManifestRequest = z.infer<typeof ManifestRequest>;

/** One asset as the client downloads it; `hash` is verified by the client before use. */
export const ManifestAsset = z.object({
  hash: AssetHash,
  key: z.string().min(1),
  contentType: z.string().min(1),
  fileExtension: z.string().regex(/^\.[A-Za-z0-9]+$/),
  url: z.url(),
});
export type ManifestAsset = z.infer<typeof ManifestAsset>;

/** The manifest body (Expo Updates protocol v1). */
export const Manifest = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  runtimeVersion: RuntimeVersion,
  launchAsset: ManifestAsset,
  assets: z.array(ManifestAsset),
  metadata: z.record(z.string(), z.string()),
  extra: z.record(z.string(), z.unknown()),
});
export type Manifest = z.infer<typeof Manifest>;
