import { z } from 'zod';

/**
 * `metadata.json` as `npx expo export` writes it:
 * `{ version: 0, bundler: "metro", fileMetadata: { ios: { bundle, assets: [{ path, ext }] }, android: … } }`.
 */
export const ExportedAssetEntry = z.object({
  path: z.string().min(1),
  ext: z.string(),
});

export const ExportedPlatformEntry = z.object({
  bundle: z.string().min(1),
  assets: z.array(ExportedAssetEntry),
});

export const ExportMetadata = z.object({
  version: z.number().int(),
  bundler: z.string(),
  fileMetadata: z.record(z.string(), ExportedPlatformEntry),
});
export type ExportMetadata = z.infer<typeof ExportMetadata>;
