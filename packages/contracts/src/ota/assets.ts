import { z } from 'zod';
import { lineText } from '../text.js';
import { Channel } from './channel.js';
import { AssetHash } from './release.js';
import { RuntimeVersion } from './runtime-version.js';

/**
 * A MIME type such as `application/javascript` or `image/png`, optionally with parameters. One
 * line: it becomes a header of the upload (`\s` in the pattern would let a line break through).
 */
export const ContentType = lineText()
  .max(255)
  .regex(/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;[\x20-\x7e]*)?$/, 'contentType must be a MIME type');

export const AssetUploadCandidate = z
  .object({
    hash: AssetHash,
    contentType: ContentType,
    size: z.number().int().min(0),
  })
  .strict();

/** POST /api/updates/assets: which of these assets does the store still need? */
export const AssetUploadCheckRequest = z
  .object({
    channel: Channel,
    runtimeVersion: RuntimeVersion,
    assets: z.array(AssetUploadCandidate).min(1).max(10_000),
  })
  .strict();
export type AssetUploadCheckRequest = z.infer<typeof AssetUploadCheckRequest>;

export const AssetUploadStatus = z.object({
  hash: AssetHash,
  status: z.enum(['present', 'missing']),
  /** The URL the manifest will list for this asset. */
  url: z.url(),
  /** Missing assets only: where to PUT the bytes, and the headers to send with them. */
  uploadUrl: z.url().optional(),
  uploadHeaders: z.record(z.string(), z.string()).optional(),
});
export type AssetUploadStatus = z.infer<typeof AssetUploadStatus>;

export const AssetUploadCheckResponse = z.object({ assets: z.array(AssetUploadStatus) });
export type AssetUploadCheckResponse = z.infer<typeof AssetUploadCheckResponse>;
